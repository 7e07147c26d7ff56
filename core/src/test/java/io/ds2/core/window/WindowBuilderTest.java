package io.ds2.core.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.window.SubtaskSample.Counter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class WindowBuilderTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source", 128), new Vertex("a", "Work", 128)),
          List.of(new Edge("s", "a", "HASH")));
  private final WindowBuilder builder = new WindowBuilder(Duration.ofSeconds(10), Duration.ZERO);

  /**
   * A job whose metric store refreshes every {@code refresh} seconds, polled every second: the
   * source emits 100/s with a backlog growing 50/s; the operator (2 subtasks) processes 100/s with
   * 400 ms busy per second in total.
   */
  private static List<JobSample> polls(int seconds, int refresh) {
    List<JobSample> samples = new ArrayList<>();
    for (int t = 0; t <= seconds; t++) {
      int stored = (t / refresh) * refresh + 100; // values as of the last refresh
      samples.add(sample(T0.plusSeconds(t), T0.minusSeconds(200), stored, "RUNNING"));
    }
    return samples;
  }

  private static JobSample sample(Instant time, Instant since, double at, String state) {
    Map<String, VertexSample> v = new LinkedHashMap<>();
    v.put(
        "s",
        new VertexSample(
            "s",
            "RUNNING",
            1,
            List.of(SubtaskSample.of(0, 0, 100 * at, 0, 1000 * at, 0)),
            OptionalDouble.of(50 * at)));
    v.put(
        "a",
        new VertexSample(
            "a",
            "RUNNING",
            2,
            List.of(
                SubtaskSample.of(0, 50 * at, 50 * at, 200 * at, 800 * at, 0),
                SubtaskSample.of(1, 50 * at, 50 * at, 200 * at, 800 * at, 0)),
            OptionalDouble.empty()));
    return new JobSample(time, state, since, OptionalLong.of(0), v);
  }

  @Test
  void ratesComeFromCounterDeltasBetweenChangePoints() {
    // Refresh every 5 s over 22 s of polls: change points at 0, 5, 10, 15, 20. Flink's task time
    // times each reading, so the first is kept: the window is 0 s .. 20 s.
    WindowResult r = builder.build(GRAPH, polls(22, 5));
    ObservationWindow w = assertInstanceOf(WindowResult.Ready.class, r).window();
    assertEquals(Duration.ofSeconds(20), w.length());
    VertexObservation a = w.vertex("a").orElseThrow();
    assertEquals(100, a.observedInputRate(), 1e-9);
    assertEquals(250, a.trueProcessingRatePerInstance().getAsDouble(), 1e-9);
    assertEquals(0.2, a.busyRatio().getAsDouble(), 1e-9);
    assertEquals(1.0, a.selectivity().getAsDouble(), 1e-9);
    assertEquals(2, a.subtaskDeltas().size());
    VertexObservation s = w.vertex("s").orElseThrow();
    assertEquals(100, s.observedOutputRate(), 1e-9);
    Backlog b = s.backlog().orElseThrow();
    assertEquals(50, b.growthPerSecond(), 1e-9);
    assertEquals(150, b.arrivalRate(), 1e-9);
    assertEquals(5, b.points());
  }

  @Test
  void aSourceThatCountsReadsHasItsBacklogInRecordsRead() {
    // The source reads 125/s and emits 100/s (a chained filter keeps 80 %); its backlog of unread
    // records grows 50/s: 175 records/s arrive, whatever the chain emits (the estimate carries
    // them downstream through the chain's selectivity: SourceEstimateTest).
    List<JobSample> samples = new ArrayList<>();
    for (JobSample js : polls(22, 1)) {
      double at = js.vertices().get("s").subtasks().get(0).get(Counter.RECORDS_OUT).getAsDouble();
      Map<String, VertexSample> v = new LinkedHashMap<>(js.vertices());
      v.put(
          "s",
          new VertexSample(
              "s",
              "RUNNING",
              1,
              List.of(SubtaskSample.of(0, 1.25 * at, at, 0, 10 * at, 0)),
              OptionalDouble.of(0.5 * at)));
      samples.add(new JobSample(js.time(), "RUNNING", js.runningSince(), js.restarts(), v));
    }
    Backlog b =
        assertInstanceOf(WindowResult.Ready.class, builder.build(GRAPH, samples))
            .window()
            .vertex("s")
            .orElseThrow()
            .backlog()
            .orElseThrow();
    assertEquals(175, b.arrivalRate(), 1e-9);
    assertEquals(50, b.growthPerSecond(), 1e-9);
  }

  @Test
  void aLoadStepInsideTheWindowShowsInTheHalves() {
    // Arrival 150/s (100 emitted + 50 backlog growth) for the first 8 s, then twice as fast.
    List<JobSample> samples = new ArrayList<>();
    for (int t = 0; t <= 16; t++) {
      double at = t <= 8 ? 100 + t : 108 + 2 * (t - 8); // records scale, task time does not
      JobSample js = sample(T0.plusSeconds(t), T0.minusSeconds(200), at, "RUNNING");
      Map<String, VertexSample> v = new LinkedHashMap<>(js.vertices());
      v.put(
          "s",
          new VertexSample(
              "s",
              "RUNNING",
              1,
              List.of(SubtaskSample.of(0, 0, 100 * at, 0, 1000.0 * (100 + t), 0)),
              OptionalDouble.of(50 * at)));
      v.put(
          "a",
          new VertexSample(
              "a",
              "RUNNING",
              2,
              List.of(
                  SubtaskSample.of(0, 50 * at, 50 * at, 0, 1000.0 * (100 + t), 0),
                  SubtaskSample.of(1, 50 * at, 50 * at, 0, 1000.0 * (100 + t), 0)),
              OptionalDouble.empty()));
      samples.add(new JobSample(js.time(), "RUNNING", js.runningSince(), js.restarts(), v));
    }
    ObservationWindow w =
        assertInstanceOf(WindowResult.Ready.class, builder.build(GRAPH, samples)).window();
    Backlog b = w.vertex("s").orElseThrow().backlog().orElseThrow();
    assertEquals(150, b.earlyArrivalRate().getAsDouble(), 1e-9);
    assertEquals(300, b.lateArrivalRate().getAsDouble(), 1e-9);
    // Steady polls: both halves agree with the whole.
    Backlog steady =
        assertInstanceOf(WindowResult.Ready.class, builder.build(GRAPH, polls(22, 1)))
            .window()
            .vertex("s")
            .orElseThrow()
            .backlog()
            .orElseThrow();
    assertEquals(150, steady.earlyArrivalRate().getAsDouble(), 1e-9);
    assertEquals(150, steady.lateArrivalRate().getAsDouble(), 1e-9);
  }

  @Test
  void flinkTaskTimeTimesTheWindowDespitePollJitter() {
    // Refreshes every 1 s of task time, but each is first seen 0-900 ms late by the poller.
    List<JobSample> samples = new ArrayList<>();
    long[] lateMs = {0, 900, 100, 800, 50, 700, 300, 0, 900, 200, 600, 100, 900, 0, 400, 850};
    for (int k = 0; k < lateMs.length; k++) {
      samples.add(
          sample(T0.plusMillis(k * 1000L + lateMs[k]), T0.minusSeconds(200), 100 + k, "RUNNING"));
    }
    ObservationWindow w =
        assertInstanceOf(WindowResult.Ready.class, builder.build(GRAPH, samples)).window();
    VertexObservation s = w.vertex("s").orElseThrow();
    assertEquals(TimeBase.TASK_TIME, s.timeBase());
    assertEquals(15, s.seconds(), 1e-9);
    assertEquals(100, s.observedOutputRate(), 1e-9);
    assertEquals(150, s.backlog().orElseThrow().arrivalRate(), 1e-9);
    assertEquals(100, w.vertex("a").orElseThrow().observedInputRate(), 1e-9);
  }

  @Test
  void withoutTimeCountersPollTimeIsUsed() {
    List<JobSample> samples = new ArrayList<>();
    for (JobSample js : polls(22, 5)) {
      Map<String, VertexSample> v = new LinkedHashMap<>();
      for (VertexSample vs : js.vertices().values()) {
        List<SubtaskSample> sub = new ArrayList<>();
        for (SubtaskSample st : vs.subtasks()) {
          sub.add(
              new SubtaskSample(
                  st.subtask(),
                  st.recordsIn(),
                  st.recordsOut(),
                  st.busyTimeMs(),
                  OptionalDouble.empty(),
                  OptionalDouble.empty()));
        }
        v.put(
            vs.vertexId(),
            new VertexSample(
                vs.vertexId(), vs.status(), vs.parallelism(), sub, vs.pendingRecords()));
      }
      samples.add(new JobSample(js.time(), js.jobState(), js.runningSince(), js.restarts(), v));
    }
    ObservationWindow w =
        assertInstanceOf(WindowResult.Ready.class, builder.build(GRAPH, samples)).window();
    // Poll time cannot tell when the first values were stored: that change point is dropped.
    assertEquals(TimeBase.POLL_TIME, w.vertex("a").orElseThrow().timeBase());
    assertEquals(15, w.vertex("a").orElseThrow().seconds(), 1e-9);
  }

  @Test
  void tooShortUntilEnoughChangePoints() {
    assertProblem(builder.build(GRAPH, polls(9, 1)), WindowProblem.TOO_SHORT);
    assertProblem(builder.build(GRAPH, polls(0, 1)), WindowProblem.TOO_FEW_SAMPLES);
  }

  @Test
  void warmUpIgnoresTheFirstSecondsAfterAStart() {
    WindowBuilder warm = new WindowBuilder(Duration.ofSeconds(5), Duration.ofSeconds(30));
    List<JobSample> samples = new ArrayList<>();
    for (int t = 0; t <= 20; t++) {
      samples.add(sample(T0.plusSeconds(t), T0, t + 1, "RUNNING"));
    }
    assertProblem(warm.build(GRAPH, samples), WindowProblem.WARMING_UP);
    for (int t = 21; t <= 40; t++) {
      samples.add(sample(T0.plusSeconds(t), T0, t + 1, "RUNNING"));
    }
    ObservationWindow w =
        assertInstanceOf(WindowResult.Ready.class, warm.build(GRAPH, samples)).window();
    assertEquals(T0.plusSeconds(30), w.start());
  }

  @Test
  void restartInsideTheWindowInvalidatesIt() {
    List<JobSample> samples = polls(20, 1);
    samples.add(sample(T0.plusSeconds(21), T0.plusSeconds(20), 1, "RUNNING"));
    WindowResult r = builder.build(GRAPH, samples);
    assertProblem(r, WindowProblem.RESTARTED);
    assertTrue(WindowProblem.RESTARTED.invalidatesSamples());
  }

  @Test
  void jobNotRunningInvalidatesIt() {
    List<JobSample> samples = polls(20, 1);
    samples.add(sample(T0.plusSeconds(21), T0.minusSeconds(200), 121, "RESTARTING"));
    assertProblem(builder.build(GRAPH, samples), WindowProblem.JOB_NOT_RUNNING);
  }

  @Test
  void decreasingCounterWithoutVisibleRestartIsRejected() {
    List<JobSample> samples = polls(20, 1);
    samples.add(sample(T0.plusSeconds(21), T0.minusSeconds(200), 5, "RUNNING"));
    assertProblem(builder.build(GRAPH, samples), WindowProblem.COUNTER_DECREASED);
  }

  @Test
  void missingBusyTimeOfAnOperatorIsRejectedWithItsName() {
    List<JobSample> samples = polls(20, 1);
    JobSample last = samples.remove(samples.size() - 1);
    Map<String, VertexSample> v = new LinkedHashMap<>(last.vertices());
    VertexSample a = v.get("a");
    SubtaskSample nan =
        new SubtaskSample(
            1,
            OptionalDouble.of(1e6),
            OptionalDouble.of(1e6),
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            OptionalDouble.empty());
    v.put(
        "a",
        new VertexSample(
            "a", "RUNNING", 2, List.of(a.subtasks().get(0), nan), OptionalDouble.empty()));
    samples.add(new JobSample(last.time(), "RUNNING", last.runningSince(), last.restarts(), v));
    WindowResult.NotReady r =
        assertInstanceOf(WindowResult.NotReady.class, builder.build(GRAPH, samples));
    assertEquals(WindowProblem.METRIC_MISSING, r.problem());
    assertTrue(r.detail().startsWith("accumulateBusyTimeMs of vertex Work subtask 1"), r.detail());
  }

  @Test
  void missingSubtaskIsPartial() {
    List<JobSample> samples = polls(20, 1);
    JobSample last = samples.remove(samples.size() - 1);
    Map<String, VertexSample> v = new LinkedHashMap<>(last.vertices());
    v.put(
        "a",
        new VertexSample(
            "a", "RUNNING", 2, List.of(v.get("a").subtasks().get(0)), OptionalDouble.empty()));
    samples.add(new JobSample(last.time(), "RUNNING", last.runningSince(), last.restarts(), v));
    assertProblem(builder.build(GRAPH, samples), WindowProblem.PARTIAL_METRICS);
  }

  private static void assertProblem(WindowResult r, WindowProblem expected) {
    assertEquals(expected, assertInstanceOf(WindowResult.NotReady.class, r).problem());
  }
}
