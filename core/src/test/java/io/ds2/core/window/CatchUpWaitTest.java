package io.ds2.core.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

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

/**
 * A run restored behind its sources' heads is not windowed until they caught up: 20 s windows, a 15
 * s warm-up, at most 180 s waited. A first run at its heads (records 1 s old) shows the source's
 * records carry fresh event times; the job restarts at second 100.
 */
class CatchUpWaitTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source", 128), new Vertex("a", "Work", 128)),
          List.of(new Edge("s", "a", "HASH")));

  private final WindowBuilder builder =
      new WindowBuilder(Duration.ofSeconds(20), Duration.ofSeconds(15), Duration.ofSeconds(180));

  /**
   * A poll at second {@code t} of the run started at second {@code since}: the source's two
   * subtasks read 500/s each, their last records {@code lagMs(t)} and 100 ms more old.
   */
  private static JobSample poll(int t, int since, IntToDoubleFunction lagMs) {
    return poll(t, since, lagMs, false);
  }

  /** As above; {@code idle}: a third subtask that reads no split, its records' age unknown. */
  private static JobSample poll(int t, int since, IntToDoubleFunction lagMs, boolean idle) {
    return poll(t, since, lagMs, idle, x -> 300);
  }

  /** As above, the source's backlog gauge reading {@code pending(t)} records. */
  private static JobSample poll(
      int t, int since, IntToDoubleFunction lagMs, boolean idle, IntToDoubleFunction pending) {
    double run = t - since;
    List<SubtaskSample> subtasks = new ArrayList<>();
    List<OptionalDouble> lag = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      subtasks.add(SubtaskSample.of(i, 500 * run, 500 * run, 0, 1000 * run, 0));
      lag.add(OptionalDouble.of(lagMs.applyAsDouble(t) + 100 * i));
    }
    if (idle) {
      subtasks.add(SubtaskSample.of(2, 0, 0, 0, 1000 * run, 0));
      lag.add(OptionalDouble.empty());
    }
    Map<String, VertexSample> v = new LinkedHashMap<>();
    v.put(
        "s",
        new VertexSample(
            "s",
            "RUNNING",
            subtasks.size(),
            subtasks,
            OptionalDouble.of(pending.applyAsDouble(t)),
            Optional.empty(),
            List.of(),
            lag));
    v.put(
        "a",
        new VertexSample(
            "a",
            "RUNNING",
            1,
            List.of(SubtaskSample.of(0, 1000 * run, 1000 * run, 700 * run, 300 * run, 0)),
            OptionalDouble.empty()));
    return new JobSample(
        T0.plusSeconds(t), "RUNNING", T0.plusSeconds(since), OptionalLong.of(since > 0 ? 1 : 0), v);
  }

  private static List<JobSample> polls(int from, int to, int since, IntToDoubleFunction lagMs) {
    return polls(from, to, since, lagMs, false);
  }

  private static List<JobSample> polls(
      int from, int to, int since, IntToDoubleFunction lagMs, boolean idle) {
    List<JobSample> polls = new ArrayList<>();
    for (int t = from; t <= to; t += 10) {
      polls.add(poll(t, since, lagMs, idle));
    }
    return polls;
  }

  /** Builds a window of the first run, its source at its heads. */
  private void firstRunAtItsHeads() {
    assertInstanceOf(WindowResult.Ready.class, builder.build(GRAPH, polls(10, 50, 0, t -> 1000)));
  }

  /** 40 s behind at the restart, 0.5 s less every second: at its heads (<= 5 s) from second 171. */
  private static final IntToDoubleFunction DRAINING =
      t -> Math.max(1000, 40_000 - 500.0 * (t - 100));

  private void assertCatchingUp(List<JobSample> polls) {
    assertEquals(
        WindowProblem.CATCHING_UP,
        assertInstanceOf(WindowResult.NotReady.class, builder.build(GRAPH, polls)).problem());
  }

  private Instant windowStart(List<JobSample> polls) {
    return assertInstanceOf(WindowResult.Ready.class, builder.build(GRAPH, polls)).window().start();
  }

  @Test
  void aRunRestoredBehindItsHeadsIsWindowedFromWhereItCaughtUp() {
    firstRunAtItsHeads();
    assertCatchingUp(polls(101, 161, 100, DRAINING));
    assertEquals(T0.plusSeconds(171), windowStart(polls(101, 191, 100, DRAINING)));
  }

  @Test
  void aSubtaskThatReadsNoSplitIsNotWaitedFor() {
    assertInstanceOf(
        WindowResult.Ready.class, builder.build(GRAPH, polls(10, 50, 0, t -> 1000, true)));
    assertCatchingUp(polls(101, 161, 100, DRAINING, true));
    assertEquals(T0.plusSeconds(171), windowStart(polls(101, 191, 100, DRAINING, true)));
  }

  @Test
  void aFirstRunBehindAtItsFirstReadingButYoungerThanItselfShowsFreshEventTimes() {
    // Fell behind 0.6 s a second from its start: 6 s behind at its first reading, 10 s in.
    assertInstanceOf(
        WindowResult.Ready.class, builder.build(GRAPH, polls(10, 50, 0, t -> 600.0 * t)));
    assertCatchingUp(polls(101, 161, 100, DRAINING));
    assertEquals(T0.plusSeconds(171), windowStart(polls(101, 191, 100, DRAINING)));
  }

  @Test
  void aRunWhoseBacklogGrowsIsWindowedOnceItsGrowthShowsNotAfterTheLongestWait() {
    firstRunAtItsHeads();
    // Falling further behind: its backlog grows 50/s (5 % of the 1,000/s it reads).
    IntToDoubleFunction fallingBehind = t -> 40_000 + 200.0 * (t - 100);
    List<JobSample> polls = new ArrayList<>();
    for (int t = 101; t <= 211; t += 10) {
      polls.add(poll(t, 100, fallingBehind, false, x -> 5_000 + 50.0 * (x - 100)));
    }
    assertCatchingUp(polls.subList(0, 6)); // 101 .. 151: 40 s of growth since the warm-up
    assertEquals(T0.plusSeconds(121), windowStart(polls)); // 60 s: a window from the warm-up on
  }

  @Test
  void aBacklogsGrowthIsJudgedOverSixMetricRefreshesWhateverTheirPeriod() {
    firstRunAtItsHeads();
    // Metrics refreshed every second and polled every half second: each reading is seen twice.
    IntToDoubleFunction fallingBehind = t -> 40_000 + 200.0 * (t - 100);
    List<JobSample> polls = new ArrayList<>();
    for (int t = 101; t <= 140; t++) {
      JobSample p = poll(t, 100, fallingBehind, false, x -> 5_000 + 50.0 * (x - 100));
      polls.add(p);
      polls.add(
          new JobSample(
              p.time().plusMillis(500),
              p.jobState(),
              p.runningSince(),
              p.restarts(),
              p.vertices()));
    }
    int upTo120 = 2 * (120 - 101) + 2;
    assertCatchingUp(polls.subList(0, upTo120)); // 115 .. 120: five refreshes since the warm-up
    assertEquals(T0.plusSeconds(115), windowStart(polls)); // six, by 121: from the warm-up on
  }

  @Test
  void aRunThatDoesNotCatchUpIsWindowedAtTheLatestTheLongestWaitAfterItsRestart() {
    firstRunAtItsHeads();
    IntToDoubleFunction fallingBehind = t -> 40_000 + 200.0 * (t - 100);
    assertCatchingUp(polls(101, 271, 100, fallingBehind));
    assertEquals(T0.plusSeconds(281), windowStart(polls(101, 311, 100, fallingBehind)));
  }

  @Test
  void aSourceNeverSeenAtItsHeadsIsNotWaitedFor() {
    // Its records carry event times a minute old by design: it would never be seen caught up.
    assertInstanceOf(WindowResult.Ready.class, builder.build(GRAPH, polls(10, 50, 0, t -> 60_000)));
    assertEquals(T0.plusSeconds(121), windowStart(polls(101, 141, 100, t -> 60_000)));
  }

  @Test
  void aRunWhoseRecordsAreYoungerThanItIsNotWaitedFor() {
    firstRunAtItsHeads();
    // Restored at its heads, then fell behind 0.6 s a second: its records no older than the run.
    assertEquals(T0.plusSeconds(121), windowStart(polls(101, 141, 100, t -> 600.0 * (t - 100))));
  }
}
