package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Whether a phase's overload showed at the sources, on hand-made counters. */
class OverloadCheckTest {
  private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
  private static final double DEMAND = 400;

  /**
   * 40 s of one source subtask back-pressured {@code pressured} of its time, its backlog growing by
   * {@code growth}/s; restarted at {@code restartAt}.
   */
  private static List<KeepsUp.Sampled> run(double pressured, double growth, int restartAt) {
    List<KeepsUp.Sampled> samples = new ArrayList<>();
    for (int t = 0; t <= 40; t++) {
      int since = t >= restartAt ? restartAt : 0;
      double up = t - since;
      VertexSample source =
          new VertexSample(
              "s",
              "RUNNING",
              1,
              List.of(
                  SubtaskSample.of(
                      0, 0, DEMAND * up, 0, 1000 * (1 - pressured) * up, 1000 * pressured * up)),
              OptionalDouble.of(growth * up));
      samples.add(
          new KeepsUp.Sampled(
              t,
              new JobSample(
                  T0.plusSeconds(t),
                  "RUNNING",
                  T0.plusSeconds(since),
                  OptionalLong.of(0),
                  Map.of("s", source))));
    }
    return samples;
  }

  private static Boolean shown(List<KeepsUp.Sampled> run, int parallelism) {
    return shown(run, parallelism, 1);
  }

  private static Boolean shown(List<KeepsUp.Sampled> run, int parallelism, double refresh) {
    return OverloadCheck.shown(
        run, 0, Map.of("Work", parallelism), Map.of("Work", 3), DEMAND, Set.of("s"), refresh);
  }

  @Test
  void aPhaseThatStartsAtItsOracleIsNotJudged() {
    assertNull(shown(run(0, 0, 100), 3));
  }

  @Test
  void anOverloadThatBackPressuresTheSourceShows() {
    assertEquals(true, shown(run(0.5, 0, 100), 1));
  }

  @Test
  void anOverloadWhoseLagGrowsShows() {
    assertEquals(true, shown(run(0, 0.05 * DEMAND, 100), 1));
  }

  @Test
  void aSourceChainThatIsItselfSaturatedShowsWhateverItsLagSays() {
    // Busy all the time, not held back, its lag flat (a Kafka consumer holding what it fetched).
    List<KeepsUp.Sampled> samples = new ArrayList<>();
    for (int t = 0; t <= 40; t++) {
      VertexSample source =
          new VertexSample(
              "s",
              "RUNNING",
              1,
              List.of(SubtaskSample.of(0, 150.0 * t, 150.0 * t, 1000.0 * t, 0, 0)),
              OptionalDouble.of(300));
      samples.add(
          new KeepsUp.Sampled(
              t,
              new JobSample(
                  T0.plusSeconds(t), "RUNNING", T0, OptionalLong.of(0), Map.of("s", source))));
    }
    assertEquals(true, shown(samples, 1));
  }

  @Test
  void anOverloadHiddenInNetworkBuffersDoesNotShow() {
    // Neither back-pressure (5 % of the time) nor a backlog growing by more than 1 % of demand.
    assertEquals(false, shown(run(0.05, 0.005 * DEMAND, 100), 1));
  }

  @Test
  void onlyThePhasesFirstRunBeforeARestartIsJudged() {
    // Restarted 3 s in: too little of the first run to tell.
    assertNull(shown(run(0.5, 0, 3), 1));
  }

  @Test
  void atFlinksDefaultRefreshFourRefreshesAreWaitedFor() {
    // The backlog gauge first reported 32 s in (polls before hold no gauge), growing from there.
    List<KeepsUp.Sampled> late = new ArrayList<>();
    for (KeepsUp.Sampled s : run(0, 0.05 * DEMAND, 100)) {
      VertexSample v = s.sample().vertices().get("s");
      VertexSample shown =
          new VertexSample(
              "s",
              "RUNNING",
              1,
              v.subtasks(),
              s.t() < 32 ? OptionalDouble.empty() : v.pendingRecords());
      late.add(
          new KeepsUp.Sampled(
              s.t(),
              new JobSample(
                  s.sample().time(),
                  "RUNNING",
                  s.sample().runningSince(),
                  OptionalLong.of(0),
                  Map.of("s", shown))));
    }
    assertEquals(false, shown(late, 1, 1), "at a 1 s refresh, 30 s is the limit");
    assertEquals(true, shown(late, 1, 10), "at 10 s, four refreshes: 40 s");
  }
}
