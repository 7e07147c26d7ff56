package io.ds2.experiments.scale;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.forecast.DemandForecast;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.window.ObservationWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;

/**
 * What forecasting adds to a decision (`--forecast act`, a daily period in 5-minute steps, two
 * weeks of history for every source): per decision, learning the window's demand, the outlook from
 * the fits made at the current step and, since the forecast here says a rise is ahead, the second
 * DS2 estimate at the forecast demand (as {@code JobScaler} does); once per history step, running
 * every source's Holt-Winters models (daily and, with two weeks kept, weekly) over its history
 * again with the weights they keep (the first decision of a step pays it); and choosing every
 * source's weights, which a forecast does at its first decision (a start, a new leader) and then
 * once a day per source, staggered.
 */
final class ForecastDecisionTime {
  private static final Duration BUCKET = Duration.ofMinutes(5);
  private static final int DAYS = 14;
  // Forecasts started afresh, each choosing every source's weights (seconds each at 100 sources).
  private static final int CHOICES = 3;

  /**
   * Median per-decision cost (fits cached) where the forecast raises (a second estimate) and where
   * it does not, the median first decision of a step (every source's model run again), and the
   * median first decision of a forecast (every source's weights chosen), in microseconds.
   */
  record Result(
      double raisingMedianMicros,
      double holdingMedianMicros,
      double stepMedianMicros,
      double chooseWeightsMedianMicros) {}

  private ForecastDecisionTime() {}

  static Result run(
      JobGraph graph, ObservationWindow window, Estimate measured, int iterations, int refits) {
    Ds2Options options =
        Ds2Options.defaults()
            .with(Map.of("forecast", "act", "forecast-period", "24h", "forecast-bucket", "5m"));
    // The window's demand is 400 records/s per source; the history's days swing 200-600 around
    // it: at 7:00 they show ~450/s, and the forecast asks for more; at 3:00 ~260/s, and it does
    // not (a forecast never lowers).
    Instant raising = Instant.parse("2026-11-15T07:00:00Z");
    Instant holding = Instant.parse("2026-11-15T03:00:00Z");
    DemandForecast forecast = seeded(options, graph, raising);
    double raisingMedian =
        perDecision(forecast, graph, window, measured, options, raising, true, iterations);
    DemandForecast quiet = seeded(options, graph, holding);
    double holdingMedian =
        perDecision(quiet, graph, window, measured, options, holding, false, iterations);
    long[] step = new long[refits];
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < refits; i++) {
        // Each in a step of its own: the fits of the step before do not count.
        Instant at = raising.plus(BUCKET.multipliedBy(1 + i + round * refits));
        long t0 = System.nanoTime();
        forecast.outlook(graph, measured, at);
        step[i] = System.nanoTime() - t0;
      }
    }
    long[] choose = new long[CHOICES];
    for (int i = 0; i < CHOICES; i++) {
      DemandForecast fresh = seeded(options, graph, raising);
      long t0 = System.nanoTime();
      fresh.outlook(graph, measured, raising);
      choose[i] = System.nanoTime() - t0;
    }
    return new Result(raisingMedian, holdingMedian, median(step), median(choose));
  }

  private static double perDecision(
      DemandForecast forecast,
      JobGraph graph,
      ObservationWindow window,
      Estimate measured,
      Ds2Options options,
      Instant now,
      boolean shouldRaise,
      int iterations) {
    long[] nanos = new long[iterations];
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < iterations; i++) {
        Instant at = now.plusMillis(i);
        long t0 = System.nanoTime();
        boolean raised = ahead(forecast, graph, window, measured, options, at);
        nanos[i] = System.nanoTime() - t0;
        if (raised != shouldRaise) {
          throw new IllegalStateException(
              "the forecast " + (raised ? "raised" : "did not raise") + " at " + now);
        }
      }
    }
    return median(nanos);
  }

  private static boolean ahead(
      DemandForecast forecast,
      JobGraph graph,
      ObservationWindow window,
      Estimate measured,
      Ds2Options options,
      Instant at) {
    return forecast
        .look(graph, window, measured, DemandScenario.measured(), options, KeyedHistory.empty(), at)
        .raised()
        .isPresent();
  }

  private static DemandForecast seeded(Ds2Options options, JobGraph graph, Instant now) {
    DemandForecast forecast = new DemandForecast(options);
    long steps = DAYS * Duration.ofDays(1).dividedBy(BUCKET);
    Instant start = now.minus(BUCKET.multipliedBy(steps));
    for (Vertex s : graph.sources()) {
      for (long k = 0; k < steps; k++) {
        Instant at = start.plus(BUCKET.multipliedBy(k));
        double dayFraction = (at.getEpochSecond() % 86_400) / 86_400.0;
        // Low at midnight, high at noon.
        double rate = 400 - 200 * Math.cos(2 * Math.PI * dayFraction) + 5 * Math.sin(k * 7.3);
        forecast.history().add(s.name(), at, rate);
      }
    }
    return forecast;
  }

  private static double median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2] / 1000.0;
  }
}
