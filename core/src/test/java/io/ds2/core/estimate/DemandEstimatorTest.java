package io.ds2.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.core.Observations;
import io.ds2.core.window.Backlog;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DemandEstimatorTest {
  @Test
  void backlogGrowthAddsToObservedOutput() {
    // Emitted 3000 in 10 s (300/s) while the backlog grew by 200/s: demand 500/s.
    Observations o =
        new Observations(10)
            .source("s", 1, 3000, 6000, Optional.of(new Backlog(2000, 200, 500, 6, 10)));
    SourceDemand d = DemandEstimator.infer(o.get("s"), Optional.empty());
    assertEquals(SourceDemand.Basis.BACKLOG, d.basis());
    assertEquals(500, d.targetRate(), 1e-9);
    assertEquals(300, d.observedRate(), 1e-9);
    assertEquals(200, d.backlogGrowthRate().getAsDouble(), 1e-9);
  }

  @Test
  void catchUpDrainsTheStandingBacklogWithinTheGivenTime() {
    // 300/s out, backlog flat at 6000: draining it in 60 s adds 100/s.
    Observations o =
        new Observations(10).source("s", 1, 3000, 0, Optional.of(new Backlog(6000, 0, 300, 6, 10)));
    SourceDemand d = DemandEstimator.infer(o.get("s"), Optional.of(Duration.ofMinutes(1)));
    assertEquals(400, d.targetRate(), 1e-9);
    assertEquals(100, d.catchUpRate().getAsDouble(), 1e-9);
  }

  @Test
  void shrinkingBacklogMeansDemandBelowOutput() {
    Observations o =
        new Observations(10)
            .source("s", 1, 3000, 0, Optional.of(new Backlog(100, -50, 250, 6, 10)));
    assertEquals(250, DemandEstimator.infer(o.get("s"), Optional.empty()).targetRate(), 1e-9);
  }

  @Test
  void aBacklogFitOverLittleOfTheWindowIsNotTrusted() {
    // pendingRecords appeared 8 s into a 10 s window: 2 s of fit is too fragile.
    Observations o =
        new Observations(10).source("s", 1, 3000, 0, Optional.of(new Backlog(100, 50, 350, 3, 2)));
    SourceDemand d = DemandEstimator.infer(o.get("s"), Optional.empty());
    assertEquals(SourceDemand.Basis.OBSERVED, d.basis());
    assertEquals(300, d.targetRate(), 1e-9);
  }

  @Test
  void aShortFitWhoseArrivalSpansAWindowOfTheSameLoadIsTrustedOverBackPressure() {
    // Recorded at Flink's defaults (fanin-step-up, ds2-defaults): after a rescale the Payments
    // source, held back 81 % of a 30 s window, had a gauge at zero and stale for most of it; its
    // arrival, fitted over 81 s (71 s of them before the restart, at the same load), said 303.6/s.
    Backlog stale =
        new Backlog(
            0,
            0,
            303.6,
            2,
            10,
            java.util.OptionalDouble.empty(),
            java.util.OptionalDouble.empty(),
            81,
            0,
            71,
            false);
    Observations o =
        new Observations(30).source("s", 1, 216.6 * 30, 0.81 * 30_000, Optional.of(stale));
    SourceDemand d = DemandEstimator.infer(o.get("s"), Optional.empty());
    assertEquals(SourceDemand.Basis.BACKLOG, d.basis());
    assertEquals(303.6, d.targetRate(), 1e-9);
  }

  @Test
  void aSourceHeldBackIsTakenAtEvenAShortFitRatherThanExtrapolated() {
    // Recorded at Flink's defaults (the Flink autoscaler's fanin-step-up-long, run 2): Payments
    // held back 55 % of a 30 s window while draining, reading 851/s; fresh readings for 10 s
    // only, which fitted 300.0/s arriving (the truth: 300/s). Extrapolated: 1,887/s.
    Observations o =
        new Observations(30)
            .source(
                "s", 1, 850.7 * 30, 0.55 * 30_000, Optional.of(new Backlog(0, -550, 300.0, 2, 10)));
    SourceDemand d = DemandEstimator.infer(o.get("s"), Optional.empty());
    assertEquals(SourceDemand.Basis.BACKLOG, d.basis());
    assertEquals(300.0, d.targetRate(), 1e-9);
  }

  @Test
  void withoutBacklogBackPressureIsExtrapolated() {
    // Blocked half of the 10 s: it would have emitted twice as much.
    Observations o = new Observations(10).source("s", 1, 3000, 5000, Optional.empty());
    SourceDemand d = DemandEstimator.infer(o.get("s"), Optional.empty());
    assertEquals(SourceDemand.Basis.BACKPRESSURE_EXTRAPOLATED, d.basis());
    assertEquals(600, d.targetRate(), 1e-9);
  }

  @Test
  void withoutBacklogOrBackPressureDemandIsObserved() {
    Observations o = new Observations(10).source("s", 2, 3000);
    SourceDemand d = DemandEstimator.infer(o.get("s"), Optional.empty());
    assertEquals(SourceDemand.Basis.OBSERVED, d.basis());
    assertEquals(300, d.targetRate(), 1e-9);
  }

  @Test
  void explicitDemandWins() {
    Observations o =
        new Observations(10).source("s", 1, 3000, 0, Optional.of(new Backlog(0, 999, 1299, 3, 10)));
    SourceDemand d = DemandEstimator.explicit(o.get("s"), 1234);
    assertEquals(SourceDemand.Basis.EXPLICIT, d.basis());
    assertEquals(1234, d.targetRate(), 1e-9);
  }

  @Test
  void aScenarioScalesInferredDemandButNotGivenRates() {
    Observations o =
        new Observations(10)
            .source("s", 1, 3000, 6000, Optional.of(new Backlog(2000, 200, 500, 6, 10)))
            .source("t", 1, 1000);
    var graph =
        io.ds2.core.graph.JobGraph.of(
            java.util.List.of(
                new io.ds2.core.graph.Vertex("s", "s", 128),
                new io.ds2.core.graph.Vertex("t", "t", 128)),
            java.util.List.of());
    var demands =
        DemandEstimator.demands(
            graph,
            o.window(),
            new DemandScenario(java.util.Map.of("t", 42.0), 2),
            Optional.empty(),
            1);
    assertEquals(1000, demands.get("s").targetRate(), 1e-9);
    assertEquals(2, demands.get("s").scale(), 1e-9);
    assertEquals(SourceDemand.Basis.BACKLOG, demands.get("s").basis());
    assertEquals(42, demands.get("t").targetRate(), 1e-9);
    assertEquals(1, demands.get("t").scale(), 1e-9);
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> DemandScenario.scaled(0));
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> DemandScenario.scaled(Double.NaN));
  }

  /** A backlog over 30 s whose gauge hid its partitions' heads (or did not). */
  private static Backlog hidden(boolean headsHidden) {
    return new Backlog(
        1500,
        -10,
        140,
        3,
        30,
        java.util.OptionalDouble.empty(),
        java.util.OptionalDouble.empty(),
        30,
        0,
        0,
        headsHidden);
  }

  @Test
  void aSaturatedSourceWhoseGaugeHidesTheHeadsIsSizedAStepAboveWhatItRead() {
    // Read 148/s, busy all 30 s; the fit says 140/s, as the gauge would for any arrival.
    Observations o =
        new Observations(30).readingSource("s", 1, 4440, 30_000, Optional.of(hidden(true)));
    SourceDemand d = DemandEstimator.infer(o.get("s"), Optional.empty());
    assertEquals(SourceDemand.Basis.BACKLOG_HIDDEN, d.basis());
    assertEquals(DemandEstimator.HIDDEN_STEP * 148, d.targetRate(), 1e-9);
    assertEquals(Optional.empty(), d.shift());
  }

  @Test
  void aSourceHeldBackAllTheTimeWhoseGaugeHidesTheHeadsIsSizedTheSame() {
    // Busy 90 %, back-pressured 9 %: it never waited for records; what its job let it read is
    // what the estimate downstream starts from, so the step applies there too.
    Observations o =
        new Observations(30)
            .readingSource("s", 1, 12_000, 27_000, 2_700, Optional.of(hidden(true)));
    SourceDemand d = DemandEstimator.infer(o.get("s"), Optional.empty());
    assertEquals(SourceDemand.Basis.BACKLOG_HIDDEN, d.basis());
    assertEquals(800, d.targetRate(), 1e-9);
  }

  /** Records read 148/s grew older by 0.4 s a second since the heads, 40 s before. */
  private static final io.ds2.core.window.RecordAge AGED =
      new io.ds2.core.window.RecordAge(148 / 0.6, 148, 0.4, 40, false);

  /** Source s's demand, its records having aged as {@code age} says. */
  private static SourceDemand aged(Observations o, io.ds2.core.window.RecordAge age) {
    return DemandEstimator.infer(o.get("s").withRecordAge(Optional.of(age)), Optional.empty());
  }

  @Test
  void aSaturatedSourceWhoseRecordsGrewOlderIsSizedForWhatTheirAgeSaysArrives() {
    // Its gauge stood (140/s); how old its records grew says 246.7/s arrive.
    Observations o =
        new Observations(30).readingSource("s", 1, 4440, 30_000, Optional.of(hidden(false)));
    SourceDemand d = aged(o, AGED);
    assertEquals(SourceDemand.Basis.RECORD_AGE, d.basis());
    assertEquals(148 / 0.6, d.targetRate(), 1e-9);
    assertEquals(148 / 0.6, d.currentRate(), 1e-9);
  }

  @Test
  void theRecordsAgeReplacesTheBlindStepWhereTheGaugeHidesTheHeads() {
    // A measurement, not a probe: 246.7/s where the blind step would take 296/s.
    Observations o =
        new Observations(30).readingSource("s", 1, 4440, 30_000, Optional.of(hidden(true)));
    SourceDemand d = aged(o, AGED);
    assertEquals(SourceDemand.Basis.RECORD_AGE, d.basis());
    assertEquals(148 / 0.6, d.targetRate(), 1e-9);
    // Where the age says no more than the gauge, the gauge's arrival stands, without the step.
    var young = new io.ds2.core.window.RecordAge(130, 148, 0, 40, false);
    SourceDemand g = aged(o, young);
    assertEquals(SourceDemand.Basis.BACKLOG, g.basis());
    assertEquals(140, g.targetRate(), 1e-9);
  }

  @Test
  void aSourceThatWaitedIsNotSizedByItsRecordsAge() {
    // Idle a third of the time, it read all there was: an age that grew is the job's, not more
    // arriving.
    Observations o =
        new Observations(30).readingSource("s", 1, 4440, 20_000, Optional.of(hidden(false)));
    SourceDemand d = aged(o, AGED);
    assertEquals(SourceDemand.Basis.BACKLOG, d.basis());
    assertEquals(140, d.targetRate(), 1e-9);
  }

  @Test
  void aSourceWithTimeToSpareIsTakenAtItsGaugeWhateverItShows() {
    // Idle a third of the time it reads all there is: the pattern is a consumer's, not a shortfall.
    Observations o =
        new Observations(30).readingSource("s", 1, 4440, 20_000, Optional.of(hidden(true)));
    SourceDemand d = DemandEstimator.infer(o.get("s"), Optional.empty());
    assertEquals(SourceDemand.Basis.BACKLOG, d.basis());
    assertEquals(140, d.targetRate(), 1e-9);
    Observations fresh =
        new Observations(30).readingSource("s", 1, 4440, 30_000, Optional.of(hidden(false)));
    assertEquals(
        SourceDemand.Basis.BACKLOG,
        DemandEstimator.infer(fresh.get("s"), Optional.empty()).basis());
  }

  private static Backlog halves(double early, double late, double shiftTolerance) {
    return new Backlog(
        0,
        0,
        (early + late) / 2,
        11,
        10,
        java.util.OptionalDouble.of(early),
        java.util.OptionalDouble.of(late),
        30,
        shiftTolerance,
        0,
        false);
  }

  @Test
  void halvesApartByMoreThanATenthAndTheGaugesNoiseAreALoadChange() {
    // A fresh gauge (no noise): 300 then 360/s is a change, 300 then 320/s is not.
    assertEquals(
        Optional.of(new SourceDemand.Shift(300, 360)), DemandEstimator.shift(halves(300, 360, 0)));
    assertEquals(Optional.empty(), DemandEstimator.shift(halves(300, 320, 0)));
    // A lagging Kafka source's stale gauge may put its halves 150/s apart at a steady load: only
    // more than that is a change.
    assertEquals(Optional.empty(), DemandEstimator.shift(halves(200, 350, 160)));
    assertEquals(
        Optional.of(new SourceDemand.Shift(300, 600)),
        DemandEstimator.shift(halves(300, 600, 160)));
  }
}
