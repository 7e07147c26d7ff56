package io.ds2.core.forecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the forecast may do to a measured estimate: raise it within the lead time, never lower. */
class ForecastSizingTest {
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source: Orders", 128), new Vertex("w", "Work", 128)),
          List.of(new Edge("s", "w", "HASH")));

  private static final Outlook.Ahead OUTLOOK =
      new Outlook.Ahead(
          Duration.ofSeconds(70),
          Map.of("Source: Orders", 200.0),
          Map.of("Source: Orders", 210.0),
          0.1,
          Set.of());

  private static final Outlook.Ahead OUTLOOK_RISING =
      new Outlook.Ahead(
          Duration.ofSeconds(70),
          Map.of("Source: Orders", 200.0),
          Map.of("Source: Orders", 400.0),
          0.1,
          Set.of());

  private static VertexEstimate vertex(String id, int current, int recommended) {
    return vertex(id, current, recommended, 100);
  }

  private static VertexEstimate vertex(String id, int current, int recommended, double input) {
    return new VertexEstimate(
        id,
        id.equals("s") ? "Source: Orders" : "Work",
        id.equals("s"),
        true,
        current,
        128,
        OptionalDouble.of(input),
        OptionalDouble.of(100),
        OptionalDouble.of(100),
        OptionalDouble.of(1),
        OptionalDouble.of(recommended),
        recommended,
        List.of(),
        Optional.empty(),
        Optional.empty());
  }

  /** An estimate of the two vertices at {@code current}, recommending {@code s} and {@code w}. */
  private static Estimate estimate(int current, int s, int w) {
    return new Estimate(
        null, Map.of(), List.of(vertex("s", current, s), vertex("w", current, w)), 0.7, null);
  }

  private static int recommended(Estimate e, String id) {
    return e.vertex(id).orElseThrow().recommendedParallelism();
  }

  @Test
  void aForecastRaisesToItsNeedWithinTheLeadTimeAndNeverLowersOrHoldsBeyondIt() {
    // Both at 6: measured, the source wants 3 and Work 3; the forecast within the lead time
    // needs 2 for the source and 4 for Work.
    Estimate raised =
        ForecastSizing.raise(GRAPH, estimate(6, 3, 3), estimate(6, 2, 4), OUTLOOK_RISING);
    assertEquals(3, recommended(raised, "s"), "never lowered to the forecast's 2");
    assertEquals(4, recommended(raised, "w"), "raised to what the forecast needs, not held at 6");
    assertTrue(
        raised.vertex("w").orElseThrow().reasons().stream()
            .anyMatch(r -> r.code() == ReasonCode.FORECAST_AHEAD));
    assertTrue(
        raised.vertex("s").orElseThrow().reasons().stream()
            .noneMatch(r -> r.code() == ReasonCode.FORECAST_AHEAD));
  }

  @Test
  void aScaleUpBothAskForIsJudgedAtTheForecastLoad() {
    // The diurnal benchmark's lunch: the source at 4 measured 422/s and wants 6 (12 partitions);
    // the forecast, 581/s within the lead time, wants 6 too. The policy holds a scale-up whose
    // busiest subtask is within the tolerance at the load its estimate sized for: that must be
    // the 581/s coming, not the 422/s measured.
    Estimate measured =
        new Estimate(null, Map.of(), List.of(vertex("s", 4, 6, 422), vertex("w", 6, 6)), 0.7, null);
    Estimate ahead =
        new Estimate(null, Map.of(), List.of(vertex("s", 4, 6, 581), vertex("w", 6, 6)), 0.7, null);
    Estimate raised = ForecastSizing.raise(GRAPH, measured, ahead, OUTLOOK_RISING);
    VertexEstimate s = raised.vertex("s").orElseThrow();
    assertEquals(581, s.targetInputRate().getAsDouble(), "sized at the forecast load");
    assertEquals(6, s.recommendedParallelism());
    assertTrue(s.reasons().stream().anyMatch(r -> r.code() == ReasonCode.FORECAST_AHEAD));
    // No scale-up (Work stays at 6): the measured estimate stands, with no forecast reason.
    assertTrue(
        raised.vertex("w").orElseThrow().reasons().stream()
            .noneMatch(r -> r.code() == ReasonCode.FORECAST_AHEAD));
    // Nor where the forecast sizes for no more input than was measured.
    Estimate same = ForecastSizing.raise(GRAPH, measured, measured, OUTLOOK_RISING);
    assertEquals(422, same.vertex("s").orElseThrow().targetInputRate().getAsDouble());
  }

  @Test
  void aForecastWithinItsErrorOfTheMeasuredAsksForNothing() {
    DemandScenario measured = DemandScenario.measured();
    // 210/s within the lead time is within 10 % of the 200/s measured; 400/s is not.
    assertTrue(ForecastSizing.demand(GRAPH, measured, OUTLOOK).isEmpty());
    assertTrue(ForecastSizing.demand(GRAPH, measured, OUTLOOK_RISING).isPresent());
  }

  @Test
  void aRiseIsSizedForWhatTheForecastIsSureOfItsPeakLessItsError() {
    // 400/s forecast with a 10 % error: sized for 400 / 1.1. The target's headroom is above
    // that: were the peak to come in full, the vertex would run at the target times 1.1.
    assertEquals(
        400 / 1.1,
        ForecastSizing.demand(GRAPH, DemandScenario.measured(), OUTLOOK_RISING)
            .orElseThrow()
            .givenRates()
            .get("s"),
        1e-9);
    // A source that does not rise beyond the error keeps its measured rate beside one that does.
    JobGraph two =
        JobGraph.of(
            List.of(
                new Vertex("s", "Source: Orders", 128),
                new Vertex("p", "Source: Payments", 128),
                new Vertex("w", "Work", 128)),
            List.of(new Edge("s", "w", "HASH"), new Edge("p", "w", "HASH")));
    Outlook.Ahead both =
        new Outlook.Ahead(
            Duration.ofSeconds(70),
            Map.of("Source: Orders", 200.0, "Source: Payments", 100.0),
            Map.of("Source: Orders", 400.0, "Source: Payments", 105.0),
            0.1,
            Set.of());
    Map<String, Double> rates =
        ForecastSizing.demand(two, DemandScenario.measured(), both).orElseThrow().givenRates();
    assertEquals(400 / 1.1, rates.get("s"), 1e-9);
    assertEquals(100.0, rates.get("p"), 1e-9);
  }
}
