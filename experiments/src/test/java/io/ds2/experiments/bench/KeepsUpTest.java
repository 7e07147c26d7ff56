package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The keeps-up test of a phase's end, on hand-made counters. */
class KeepsUpTest {
  private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
  private static final Map<String, String> NAMES = Map.of("s", "Source: In", "w", "Count");

  /**
   * 100 s of a source emitting {@code emitted}/s with {@code growth}/s backlog growth into two
   * subtasks busy {@code busy[i]} of the time, restarted at {@code restartAt}.
   */
  private static List<KeepsUp.Sampled> run(
      double emitted, double growth, double[] busy, int restartAt) {
    List<KeepsUp.Sampled> samples = new ArrayList<>();
    for (int t = 0; t <= 100; t++) {
      int since = t >= restartAt ? restartAt : 0;
      double up = t - since; // counters restart with the job
      Map<String, VertexSample> v = new LinkedHashMap<>();
      v.put(
          "s",
          new VertexSample(
              "s",
              "RUNNING",
              1,
              List.of(SubtaskSample.of(0, 0, emitted * up, 0, 1000 * up, 0)),
              OptionalDouble.of(growth * t)));
      List<SubtaskSample> subtasks = new ArrayList<>();
      for (int i = 0; i < busy.length; i++) {
        subtasks.add(
            SubtaskSample.of(i, 50 * up, 0, 1000 * busy[i] * up, 1000 * (1 - busy[i]) * up, 0));
      }
      v.put("w", new VertexSample("w", "RUNNING", busy.length, subtasks, OptionalDouble.empty()));
      samples.add(
          new KeepsUp.Sampled(
              t,
              new JobSample(
                  T0.plusSeconds(t), "RUNNING", T0.plusSeconds(since), OptionalLong.of(0), v)));
    }
    return samples;
  }

  @Test
  void aJobKeepsUpWhenNoSubtaskIsSaturatedAndTheBacklogHolds() {
    KeepsUp.Verdict v =
        KeepsUp.at(run(100, 0, new double[] {0.9, 0.6}, 1000), 100, 100, NAMES, Set.of("s"));
    assertTrue(v.keepsUp());
    assertEquals(60, v.seconds(), 1e-9);
    assertEquals("Count", v.busiestVertex());
    assertEquals(0.9, v.busiest(), 1e-9);
    assertEquals(1, v.throughput(), 1e-9);
  }

  @Test
  void oneSaturatedSubtaskFailsItEvenWhenTheSourcesEmitEverything() {
    // The overflow sits in network buffers: the source emits the demand, one subtask is flat out.
    KeepsUp.Verdict v =
        KeepsUp.at(run(100, 0, new double[] {0.99, 0.5}, 1000), 100, 100, NAMES, Set.of("s"));
    assertFalse(v.keepsUp());
    assertEquals(1, v.throughput(), 1e-9);
  }

  @Test
  void aSaturatedSubtaskDrainingTheBacklogKeepsUp() {
    KeepsUp.Verdict v =
        KeepsUp.at(run(120, -20, new double[] {1.0, 0.7}, 1000), 100, 100, NAMES, Set.of("s"));
    assertTrue(v.keepsUp());
    assertEquals(1.2, v.throughput(), 1e-9);
  }

  @Test
  void aGrowingBacklogFailsIt() {
    KeepsUp.Verdict v =
        KeepsUp.at(run(90, 10, new double[] {0.9, 0.9}, 1000), 100, 100, NAMES, Set.of("s"));
    assertFalse(v.keepsUp());
    assertEquals(10, v.backlogGrowth(), 1e-9);
    assertEquals(0.9, v.throughput(), 1e-9);
  }

  @Test
  void aGaugeThatHidesTheBacklogDoesNotHideTheShortfall() {
    // 100/s arrive, 60/s are read; the lag gauge (a Kafka consumer holding what it fetched)
    // even shrinks. What arrives less what is read is the backlog's growth.
    KeepsUp.Verdict v =
        KeepsUp.at(run(60, -5, new double[] {0.9, 0.6}, 1000), 100, 100, NAMES, Set.of("s"));
    assertFalse(v.keepsUp());
    assertEquals(40, v.backlogGrowth(), 1e-9);
    assertEquals(0.6, v.throughput(), 1e-9);
  }

  @Test
  void oneSourceDrainingDoesNotCoverForAnotherFallingBehind() {
    // Demand 700/s: "a" has 400/s and reads 300/s; "b" has 300/s and drains a backlog at 450/s.
    // Together they read 750/s, more than arrives; "a" falls behind by 100/s all the same.
    List<KeepsUp.Sampled> samples = new ArrayList<>();
    for (int t = 0; t <= 100; t++) {
      Map<String, VertexSample> v = new LinkedHashMap<>();
      v.put("a", source("a", 300 * t, t, 0));
      v.put("b", source("b", 450 * t, t, 50_000 - 150 * t));
      samples.add(
          new KeepsUp.Sampled(
              t, new JobSample(T0.plusSeconds(t), "RUNNING", T0, OptionalLong.of(0), v)));
    }
    Map<String, String> names = Map.of("a", "Source: A", "b", "Source: B");
    KeepsUp.Verdict together = KeepsUp.at(samples, 100, 700, names, Set.of("a", "b"));
    assertTrue(together.keepsUp());
    KeepsUp.Verdict each =
        KeepsUp.at(samples, 100, 700, names, Set.of("a", "b"), Map.of("a", 4 / 7.0, "b", 3 / 7.0));
    assertFalse(each.keepsUp());
    assertEquals(100, each.backlogGrowth(), 1e-6);
  }

  private static VertexSample source(String id, double read, int t, double pending) {
    return new VertexSample(
        id,
        "RUNNING",
        1,
        List.of(SubtaskSample.of(0, read, read, 500.0 * t, 500.0 * t, 0)),
        OptionalDouble.of(pending));
  }

  @Test
  void countersSinceARestartCountAndTooFewSecondsAreUnknown() {
    // Restarted 30 s before the end: measured over those 30 s only.
    KeepsUp.Verdict since =
        KeepsUp.at(run(100, 0, new double[] {0.9, 0.6}, 70), 100, 100, NAMES, Set.of("s"));
    assertEquals(30, since.seconds(), 1e-9);
    assertTrue(since.keepsUp());
    // Restarted 10 s before the end: not enough to tell.
    assertNull(
        KeepsUp.at(run(100, 0, new double[] {0.9, 0.6}, 90), 100, 100, NAMES, Set.of("s"))
            .keepsUp());
  }

  @Test
  void pollsRightAfterARestartThatStillShowTheOldRunAreNotMeasuredFrom() {
    // Restarted at 60 s; for 10 s (Flink's default metric refresh) the store still answers with
    // the old run's counters and no backlog gauge. The job keeps up after the restart.
    List<KeepsUp.Sampled> samples = new ArrayList<>();
    for (KeepsUp.Sampled s : run(100, 0, new double[] {0.9, 0.6}, 60)) {
      if (s.t() >= 60 && s.t() < 70) {
        JobSample stale = samples.get(59).sample();
        Map<String, VertexSample> v = new LinkedHashMap<>();
        stale
            .vertices()
            .forEach(
                (id, x) ->
                    v.put(
                        id,
                        new VertexSample(
                            id, "RUNNING", x.parallelism(), x.subtasks(), OptionalDouble.empty())));
        samples.add(
            new KeepsUp.Sampled(
                s.t(),
                new JobSample(
                    s.sample().time(),
                    "RUNNING",
                    s.sample().runningSince(),
                    OptionalLong.of(0),
                    v)));
      } else {
        samples.add(s);
      }
    }
    KeepsUp.Verdict v = KeepsUp.at(samples, 100, 100, NAMES, Set.of("s"));
    assertTrue(v.keepsUp(), v.toString());
    assertEquals(30, v.seconds(), 1e-9);
    assertEquals(1, v.throughput(), 1e-9);
  }
}
