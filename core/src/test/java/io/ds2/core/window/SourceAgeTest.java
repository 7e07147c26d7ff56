package io.ds2.core.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** What arrives at a source, by how old the records it emits grew since it was at its heads. */
class SourceAgeTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /**
   * A source of two subtasks, each reading 500 records/s (held back by its job the whole time),
   * read every 10 s as Flink's metric store refreshes: subtask i's last record {@code lagMs(i, t)}
   * old at second t, {@code pending} waiting by its gauge.
   */
  private static VertexSample reading(int t, IntToDoubleFunction lag0, double pending) {
    List<SubtaskSample> subtasks = new ArrayList<>();
    List<OptionalDouble> lag = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      subtasks.add(SubtaskSample.of(i, 500.0 * t, 460.0 * t, 0, 0, 1000.0 * t));
      lag.add(OptionalDouble.of(lag0.applyAsDouble(t) + 100 * i));
    }
    return new VertexSample(
        "s", "RUNNING", 2, subtasks, OptionalDouble.of(pending), Optional.empty(), List.of(), lag);
  }

  private static Optional<RecordAge> fit(int from, int to, IntToDoubleFunction lagMs) {
    return fit(from, to, lagMs, from);
  }

  /** As above, the first reading {@code runAge} seconds into the run. */
  private static Optional<RecordAge> fit(
      int from, int to, IntToDoubleFunction lagMs, double runAge) {
    List<VertexSample> values = new ArrayList<>();
    List<Double> at = new ArrayList<>();
    for (int t = from; t <= to; t += 10) {
      values.add(reading(t, lagMs, 300));
      at.add((double) (t - from));
    }
    return SourceAge.fit(values, at.stream().mapToDouble(Double::doubleValue).toArray(), runAge);
  }

  @Test
  void aSourceFallingBehindFromItsHeadsReadsAsWhatItReadOverOneLessTheAgesGrowth() {
    // 1,000/s read, the records 0.4 s older every second: 1,000 / 0.6 arrive.
    RecordAge age = fit(10, 50, t -> 2000 + 400.0 * (t - 10)).orElseThrow();
    assertEquals(1000.0 / 0.6, age.arrivalRate(), 1e-6);
    assertEquals(1000, age.readRate(), 1e-6);
    assertEquals(0.4, age.growth(), 1e-9);
    assertEquals(40, age.sinceHeadsSeconds(), 1e-9);
    assertFalse(age.capped());
  }

  @Test
  void aChunksJumpMovesTheFitLittle() {
    // As above, one reading a chunk's 20 s too old: the median of the pairwise slopes holds.
    RecordAge age =
        fit(10, 60, t -> 2000 + 400.0 * (t - 10) + (t == 40 ? 20_000 : 0)).orElseThrow();
    assertEquals(1000.0 / 0.6, age.arrivalRate(), 0.05 * 1000.0 / 0.6);
  }

  @Test
  void moreThanTwiceWhatWasReadIsTakenAsTwice() {
    RecordAge age = fit(10, 50, t -> 2000 + 900.0 * (t - 10)).orElseThrow();
    assertEquals(2000, age.arrivalRate(), 1e-6);
    assertEquals(SourceAge.MAX_GROWTH, age.growth(), 1e-9);
    assertTrue(age.capped());
  }

  @Test
  void aRunThatStartsBehindSaysNothing() {
    // After a restart every partition's first chunk starts from the checkpoint: the age rises a
    // second a second whatever arrives. Not at the heads at its first reading: no fit.
    assertTrue(fit(10, 90, t -> 30_000 + 1000.0 * (t - 10)).isEmpty());
  }

  @Test
  void aRunAlreadyBehindAtItsFirstReadingIsReadFromThereIfItsRecordsAreYoungerThanTheRun() {
    // 8 s behind at the first reading (past the 5 s heads), 20 s into the run: it started at its
    // heads and fell behind 0.4 s a second before the metric store first refreshed.
    RecordAge age = fit(10, 50, t -> 400.0 * (t + 10), 20).orElseThrow();
    assertEquals(1000.0 / 0.6, age.arrivalRate(), 1e-6);
    assertEquals(0.4, age.growth(), 1e-9);
    assertEquals(40, age.sinceHeadsSeconds(), 1e-9);
    // The same readings 5 s into a run: records older than the run, a restore from a checkpoint.
    assertTrue(fit(10, 50, t -> 400.0 * (t + 10), 5).isEmpty());
    // And 150 s into a run, the earliest reading kept: younger than the run, but not one of its
    // first readings (a run restored behind that has drained part of its backlog reads so).
    assertTrue(fit(10, 50, t -> 400.0 * (t + 10), 150).isEmpty());
  }

  @Test
  void youngRecordsWithABacklogAreNotTheHeads() {
    // One caught-up partition's chunk shows young records while 20,000 still wait (20 s of
    // reading).
    List<VertexSample> values = new ArrayList<>();
    double[] at = new double[5];
    for (int k = 0; k < 5; k++) {
      values.add(reading(10 + 10 * k, t -> 1000 + 400.0 * (t - 10), k == 0 ? 20_000 : 300));
      at[k] = 10 * k;
    }
    assertTrue(SourceAge.fit(values, at, 10).isEmpty());
  }

  @Test
  void tooShortASinceTheHeadsSaysNothing() {
    assertTrue(fit(10, 30, t -> 2000 + 400.0 * (t - 10)).isEmpty());
  }

  @Test
  void aSourceAtItsHeadsSaysNothingItsGaugeDoesNot() {
    assertTrue(fit(10, 60, t -> 800).isEmpty());
  }

  @Test
  void theRunsFirstReadingsFromItsWarmUpAndEarlierWindowsFindTheHeads() {
    JobGraph graph =
        JobGraph.of(
            List.of(new Vertex("s", "Source", 128), new Vertex("a", "Work", 128)),
            List.of(new Edge("s", "a", "HASH")));
    WindowBuilder builder = new WindowBuilder(Duration.ofSeconds(20), Duration.ofSeconds(15));
    IntToDoubleFunction lag = t -> 2000 + 400.0 * (t - 10);
    List<JobSample> earlier = new ArrayList<>();
    for (int t = 10; t <= 30; t += 10) {
      earlier.add(poll(t, lag));
    }
    List<JobSample> window = new ArrayList<>();
    for (int t = 40; t <= 60; t += 10) {
      window.add(poll(t, lag));
    }
    VertexObservation s =
        assertInstanceOf(WindowResult.Ready.class, builder.build(graph, earlier, window))
            .window()
            .vertex("s")
            .orElseThrow();
    assertEquals(1000.0 / 0.6, s.recordAge().orElseThrow().arrivalRate(), 1.0);
    assertEquals(50, s.recordAge().orElseThrow().sinceHeadsSeconds(), 0.5);
    // The window alone starts 40 s into the run, its records 14 s old: younger than the run, so
    // read from there, but over 20 s only: nothing.
    VertexObservation alone =
        assertInstanceOf(WindowResult.Ready.class, builder.build(graph, List.of(), window))
            .window()
            .vertex("s")
            .orElseThrow();
    assertTrue(alone.recordAge().isEmpty());
  }

  private static JobSample poll(int t, IntToDoubleFunction lag) {
    Map<String, VertexSample> v = new LinkedHashMap<>();
    // Its lag grows as it falls behind: a held-back source's gauge that stood all window would
    // make the window wait for it (GaugeAgeTest).
    v.put("s", reading(t, lag, 100.0 * t));
    v.put(
        "a",
        new VertexSample(
            "a",
            "RUNNING",
            1,
            List.of(SubtaskSample.of(0, 920.0 * t, 920.0 * t, 900.0 * t, 100.0 * t, 0)),
            OptionalDouble.empty()));
    return new JobSample(T0.plusSeconds(t), "RUNNING", T0, OptionalLong.of(0), v);
  }
}
