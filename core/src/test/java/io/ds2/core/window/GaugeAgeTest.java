package io.ds2.core.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A Kafka source's lag gauge standing still while its job holds it back: such readings are left out
 * of the arrival fit, at Flink's default 10 s metric refresh.
 */
class GaugeAgeTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant RUNNING_SINCE = T0;
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source: Events", 128), new Vertex("w", "Work -> Sink", 128)),
          List.of(new Edge("s", "w", "HASH")));
  private final WindowBuilder builder = new WindowBuilder(Duration.ofSeconds(30), Duration.ZERO);

  /**
   * The sub-linear job's source after a rescale at Flink's defaults (Kafka-fed suite, 2026-12-03,
   * topic written at 360 records/s): seconds into the run, records read, pendingRecords, and the
   * source's back-pressured milliseconds (held back all the time after its first second; recorded
   * within 1 % of it). Its job's buffers took 19,221 records in the first 10 s; then the source,
   * held back, stopped polling, and its gauge stood at 5,787 for 21 s.
   */
  private static final long[][] HELD_BACK = {
    {10, 19221, 5787, 9000}, {21, 19224, 5787, 20000}, {31, 19224, 5787, 30000},
    {41, 24134, 14384, 40000}, {51, 24134, 14384, 50000}, {61, 28957, 16210, 60000},
  };

  /**
   * The same job's first run, before its first rescale: the source kept up (gauge at zero) until
   * its job's buffers filled at about second 48; then, held back, it read nothing and its gauge
   * stayed at zero.
   */
  private static final long[][] BLOCKED_AT_ZERO = {
    {14, 10858, 0, 0}, {24, 14477, 0, 0}, {34, 17979, 0, 3423}, {44, 17979, 0, 13423},
  };

  private static List<JobSample> polls(long[][] trace, int from, int to) {
    List<JobSample> samples = new ArrayList<>();
    for (long[] r : trace) {
      if (r[0] >= from && r[0] <= to) {
        samples.add(poll((int) r[0], r[1], r[2], r[3]));
      }
    }
    return samples;
  }

  private static JobSample poll(int t, double read, double pending, double backPressuredMs) {
    return poll(t, read, OptionalDouble.of(pending), backPressuredMs);
  }

  private static JobSample poll(
      int t, double read, OptionalDouble pending, double backPressuredMs) {
    Map<String, VertexSample> v = new LinkedHashMap<>();
    double idle = 1000.0 * t - backPressuredMs;
    v.put(
        "s",
        new VertexSample(
            "s",
            "RUNNING",
            1,
            List.of(SubtaskSample.of(0, read, read, 0, idle, backPressuredMs)),
            pending));
    v.put(
        "w",
        new VertexSample(
            "w",
            "RUNNING",
            1,
            List.of(SubtaskSample.of(0, 96.0 * t, 96.0 * t, 1000.0 * t, 0, 0)),
            OptionalDouble.empty()));
    return new JobSample(T0.plusSeconds(t), "RUNNING", RUNNING_SINCE, OptionalLong.of(0), v);
  }

  private Backlog backlog(List<JobSample> leadIn, List<JobSample> window) {
    return backlog(builder, leadIn, window);
  }

  private static Backlog backlog(
      WindowBuilder builder, List<JobSample> leadIn, List<JobSample> window) {
    WindowResult r = builder.build(GRAPH, leadIn, window);
    return assertInstanceOf(WindowResult.Ready.class, r, r.toString())
        .window()
        .vertex("s")
        .orElseThrow()
        .backlog()
        .orElseThrow();
  }

  @Test
  void aGaugeStandingOverAWaitingBacklogIsLeftOutOfTheFit() {
    // The window from second 31: its first reading repeats a gauge read 21 s before (a lead-in
    // reading, or the warm-up's); fitted with them, the arrival read 434/s here (and 599/s in the
    // live decision, with another lead-in) for 360.
    Backlog b = backlog(polls(HELD_BACK, 0, 30), polls(HELD_BACK, 31, 61));
    assertEquals(332.5, b.arrivalRate(), 0.1); // (45,167 - 38,518) / 20 s: 8 % short, at 10 s
    assertEquals(2, b.points()); // seconds 41 and 61: 31 and 51 repeat a gauge 10 s old or more
  }

  @Test
  void aGaugeAtZeroOnASourceHeldBackIsLeftOutButNotOnOneThatKeepsUp() {
    // At zero and free (seconds 14-34) the source keeps up: every reading counts. At second 44
    // it had been held back all 10 s: its zero says nothing of the records waiting.
    WindowBuilder twenty = new WindowBuilder(Duration.ofSeconds(20), Duration.ZERO);
    Backlog keepingUp = backlog(twenty, List.of(), polls(BLOCKED_AT_ZERO, 14, 34));
    assertEquals(3, keepingUp.points());
    Backlog heldBack = backlog(twenty, List.of(), polls(BLOCKED_AT_ZERO, 14, 44));
    assertEquals(3, heldBack.points());
    assertEquals(356.1, heldBack.arrivalRate(), 0.1);
  }

  @Test
  void aWindowOverWhichAHeldBackSourcesGaugeStoodWaitsForItToMove() {
    // Seconds 10-31: held back all the time, the source read 3 records and its gauge stood at
    // 5,787. Extrapolated from back-pressure, such a window made 0.7/s of demand (the sub-linear
    // job at Flink's defaults, 2026-12-07) where 360/s arrived: it waits for the gauge instead.
    WindowBuilder twenty = new WindowBuilder(Duration.ofSeconds(20), Duration.ZERO);
    WindowResult stood = twenty.build(GRAPH, List.of(), polls(HELD_BACK, 10, 31));
    WindowResult.NotReady waiting = assertInstanceOf(WindowResult.NotReady.class, stood);
    assertEquals(WindowProblem.TOO_FEW_SAMPLES, waiting.problem());
    assertTrue(
        waiting.detail().startsWith("waiting for the backlog gauge of source Source: Events"),
        waiting.detail());
    // Once the gauge has moved (seconds 41 and 61) the longer window fits the arrival.
    Backlog moved = backlog(twenty, List.of(), polls(HELD_BACK, 10, 61));
    assertEquals(3, moved.points()); // seconds 10, 41 and 61
    assertTrue(moved.arrivalRate() > 300, "arrival " + moved.arrivalRate());
  }

  @Test
  void aHeldBackSourceWithoutABacklogGaugeIsObservedAsBefore() {
    // Nothing to wait for: its window is made, and its demand is the estimate's to extrapolate.
    List<JobSample> noGauge = new ArrayList<>();
    for (long[] r : HELD_BACK) {
      if (r[0] <= 31) {
        noGauge.add(poll((int) r[0], r[1], OptionalDouble.empty(), r[3]));
      }
    }
    WindowBuilder twenty = new WindowBuilder(Duration.ofSeconds(20), Duration.ZERO);
    WindowResult r = twenty.build(GRAPH, List.of(), noGauge);
    VertexObservation source =
        assertInstanceOf(WindowResult.Ready.class, r, r.toString())
            .window()
            .vertex("s")
            .orElseThrow();
    assertTrue(source.backlog().isEmpty());
    assertEquals(1.0, source.backPressuredRatio().orElseThrow(), 0.01);
  }
}
