package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

class LagSloTest {
  private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");

  @Test
  void aLagGrowingFasterThanOnePercentOfDemandIsBehindAfterTheWarmUp() {
    // Demand 1,000/s; the lag grows 50/s (5 %) from 200 s on, and refreshes only every 10 s.
    List<Saso.Point> points = new ArrayList<>();
    for (int t = 0; t <= 400; t++) {
      double lag = t < 200 ? 100 : 100 + 50 * (10 * (t / 10) - 200);
      points.add(new Saso.Point(t, 0, Map.of(), 1, lag));
    }
    LagSlo.Verdict v = LagSlo.of(points, 0, 0, 400, 1000);
    assertEquals(280, v.judgedSeconds(), 1e-9); // 120 .. 400
    // Behind once the trailing minute's trend through the 10 s steps passes 10/s: from about 22 s
    // into the growth (the first step shows at 210 s) to the end.
    assertEquals(178, v.behindSeconds(), 5);
  }

  @Test
  void aSteadyOrDrainingLagAndNoisyStepsOfTheGaugeAreNotBehind() {
    List<Saso.Point> points = new ArrayList<>();
    for (int t = 0; t <= 400; t++) {
      double lag = Math.max(0, 5000 - 20 * t) + (t / 10 % 2 == 0 ? 8 : 0);
      points.add(new Saso.Point(t, 0, Map.of(), 1, lag));
    }
    assertEquals(0, LagSlo.of(points, 0, 0, 400, 1000).behindSeconds());
  }

  @Test
  void onlyThePhaseAskedForIsJudged() {
    List<Saso.Point> points = new ArrayList<>();
    for (int t = 0; t <= 300; t++) {
      points.add(new Saso.Point(t, t < 150 ? 0 : 1, Map.of(), 1, 100.0 * t));
    }
    LagSlo.Verdict first = LagSlo.of(points, 0, 0, 150, 1000);
    assertEquals(29, first.judgedSeconds(), 1e-9); // 120 .. 149
    assertEquals(29, first.behindSeconds(), 1e-9);
    assertEquals(30, LagSlo.of(points, 1, 150, 300, 1000).judgedSeconds(), 1e-9);
  }

  @Test
  void aFlatGaugeOverReadsShortOfTheDemandIsBehind() {
    // Demand 1,000/s, the source reads 900/s by its own clock; its gauge stands at 300 (a Kafka
    // consumer holding what it fetched). Counters refresh every 10 s, as at Flink's defaults.
    List<Saso.Point> points = new ArrayList<>();
    List<KeepsUp.Sampled> sampled = new ArrayList<>();
    for (int t = 0; t <= 400; t++) {
      int refreshed = 10 * (t / 10);
      points.add(new Saso.Point(t, 0, Map.of(), 1, 300));
      VertexSample source =
          new VertexSample(
              "s",
              "RUNNING",
              1,
              List.of(
                  SubtaskSample.of(
                      0, 900.0 * refreshed, 900.0 * refreshed, 1000.0 * refreshed, 0, 0)),
              OptionalDouble.of(300));
      sampled.add(
          new KeepsUp.Sampled(
              t,
              new JobSample(
                  T0.plusSeconds(t), "RUNNING", T0, OptionalLong.of(0), Map.of("s", source))));
    }
    assertEquals(0, LagSlo.of(points, 0, 0, 400, 1000).behindSeconds());
    LagSlo.Verdict v = LagSlo.of(points, sampled, Set.of("s"), 0, 0, 400, 1000);
    assertEquals(280, v.behindSeconds(), 1e-9);
    // Reading all of it, it is not behind.
    assertEquals(0, LagSlo.of(points, sampled, Set.of("s"), 0, 0, 400, 900).behindSeconds());
  }

  @Test
  void overTheRunPhasesOfAMinuteAreJudgedAndAFollowedRampIsNotBehind() {
    // Phases a minute apart, x1 to x2 and back; the lag flat while the job follows, then growing
    // by 5 % of the demand (700/s at x1 for the fan-in job: 35/s) for the last 200 s.
    Scenario s =
        new Scenario(
            "t",
            "minute phases",
            io.ds2.workloads.SampleJobs.ordersAndPayments(),
            List.of(
                new Scenario.Phase(0, 1),
                new Scenario.Phase(60, 2, 30),
                new Scenario.Phase(120, 1, 30),
                new Scenario.Phase(180, 1)),
            java.time.Duration.ofSeconds(600));
    List<Saso.Point> points = new ArrayList<>();
    for (int t = 0; t <= 600; t++) {
      double lag = t < 400 ? 100 : 100 + 35 * (t - 400);
      points.add(new Saso.Point(t, s.phaseAt(t), Map.of(), 1, lag));
    }
    LagSlo.Verdict v = LagSlo.overRun(points, List.of(), Set.of(), s, 0);
    assertEquals(480, v.judgedSeconds(), 1e-9); // 120 .. 600, across the phases
    // Behind once the trailing minute's trend passes 7/s, about 18 s into the growth, to the end.
    assertEquals(182, v.behindSeconds(), 5);
  }

  /**
   * A run over a two-minute ramp (x1 to x2 from 200 s) whose sources read {@code share} of what was
   * sent, polled every second while their counters refresh every 10 s (Flink's default), the lag
   * gauge reading 0 (a Kafka consumer at its default fetch).
   */
  private static LagSlo.Verdict rampReadAt(double share) {
    return rampReadAt(share, 1, 2, 0);
  }

  /**
   * As above, the load ramping from {@code from} to {@code to}, the source's subtask started {@code
   * start} s after the job entered RUNNING (its elapsed time counts from then).
   */
  private static LagSlo.Verdict rampReadAt(double share, double from, double to, double start) {
    Scenario s =
        new Scenario(
            "t",
            "a ramp",
            io.ds2.workloads.SampleJobs.ordersAndPayments(),
            List.of(new Scenario.Phase(0, from), new Scenario.Phase(200, to, 120)),
            java.time.Duration.ofSeconds(500));
    List<Saso.Point> points = new ArrayList<>();
    List<KeepsUp.Sampled> sampled = new ArrayList<>();
    for (int t = 0; t <= 500; t++) {
      int refreshed = 10 * (t / 10);
      double read = share * s.eventsBy(refreshed);
      points.add(new Saso.Point(t, s.phaseAt(t), Map.of(), 1, 0));
      VertexSample source =
          new VertexSample(
              "s",
              "RUNNING",
              1,
              List.of(
                  SubtaskSample.of(
                      0, read, read, 500.0 * (refreshed - start), 500.0 * (refreshed - start), 0)),
              OptionalDouble.of(0));
      sampled.add(
          new KeepsUp.Sampled(
              t,
              new JobSample(
                  T0.plusSeconds(t), "RUNNING", T0, OptionalLong.of(0), Map.of("s", source))));
    }
    return LagSlo.overRun(points, sampled, Set.of("s"), s, 0);
  }

  @Test
  void aRampFollowedExactlyIsNotBehindThoughTheCountersLagThePolls() {
    // Set against the schedule's trailing minute up to the poll, counters up to 10 s old read a
    // ramp followed exactly as 1 % behind for most of it; against what was sent over the span they
    // were counted over, they are not.
    assertEquals(0, rampReadAt(1.0).behindSeconds());
    // Reading 5 % short of what is sent is behind all the while it is judged (from 120 s).
    LagSlo.Verdict short5 = rampReadAt(0.95);
    assertEquals(380, short5.behindSeconds(), 10);
  }

  @Test
  void theSubtasksStartAfterTheJobIsNotTakenForTheCountersAge() {
    // The source's subtask started 3 s after the job: its elapsed time is 3 s short of the job's
    // running time, which read as counters 3 s older than they are. Over a falling load the
    // schedule 3 s earlier is higher, and a job reading all that is sent read 1-2 % behind; on a
    // rise a 5 % shortfall read as less. The least age over the run is that start, taken off.
    assertEquals(0, rampReadAt(1.0, 2, 1, 3).behindSeconds());
    assertEquals(0, rampReadAt(1.0, 1, 2, 3).behindSeconds());
    assertEquals(380, rampReadAt(0.95, 1, 2, 3).behindSeconds(), 10);
  }
}
