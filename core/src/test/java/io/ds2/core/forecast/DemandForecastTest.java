package io.ds2.core.forecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.ds2.core.Observations;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.options.Ds2Options;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The forecast at ds2's default forecast settings: a daily period in 5-minute steps. */
class DemandForecastTest {
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source: Orders", 128), new Vertex("w", "Work", 128)),
          List.of(new Edge("s", "w", "REBALANCE")));
  private static final Duration STEP = Duration.ofMinutes(5);

  /**
   * Records/s at {@code t}: 200 at night, up to 1,000 at noon on weekdays and 400 at weekends
   * (Monday is 0; 1970-01-01 was a Thursday), give or take 3 % (seeded by the step). Without noise
   * a daily model whose weights go to 1 keeps its first day's profile, here a Saturday's, and
   * forecasts the held-out Saturday exactly: the weekly season would not be needed.
   */
  private static double weekly(Instant t) {
    long day = Math.floorDiv(t.getEpochSecond(), 86_400);
    boolean weekend = Math.floorMod(day + 3, 7) >= 5;
    double phase = Math.floorMod(t.getEpochSecond(), 86_400) / 86_400.0;
    double rise = Math.max(0, Math.sin(Math.PI * (phase - 0.25) / 0.6));
    double noise = 0.03 * new java.util.Random(t.getEpochSecond()).nextGaussian();
    return (200 + (weekend ? 200 : 800) * rise) * (1 + noise);
  }

  private static Estimate measured(double rate) {
    return new Estimate(
        new Observations(30).source("s", 1, rate * 30).window(),
        Map.of(
            "s",
            new SourceDemand(
                "s",
                rate,
                SourceDemand.Basis.BACKLOG,
                rate,
                OptionalDouble.of(0),
                OptionalDouble.empty(),
                1,
                Optional.empty())),
        List.of(),
        1.0,
        KeyedHistory.empty());
  }

  @Test
  void twoWeeksOfStepsAreKeptAndAWeeklyPatternIsFollowedOnThem() {
    DemandForecast forecast = new DemandForecast(Ds2Options.fromMap(Map.of("forecast", "act")));
    // Sunday 2026-01-04, 01:00: the day held out before the latest hour is a Saturday, which a
    // daily season would forecast as the Friday before it.
    Instant now = Instant.parse("2026-01-04T01:00:00Z");
    // Up to the window decided now, which is learnt (into the step being measured) before the
    // forecast looks ahead, as a live decision does.
    for (Instant t = now.minus(Duration.ofDays(15)); !t.isAfter(now); t = t.plus(STEP)) {
      forecast.history().add("Source: Orders", t, weekly(t));
    }
    Outlook outlook = forecast.outlook(GRAPH, measured(weekly(now)), now);
    Outlook.Ahead ahead = assertInstanceOf(Outlook.Ahead.class, outlook, outlook.toString());
    assertEquals(Set.of("Source: Orders"), ahead.weekly());
  }

  @Test
  void theLeadTimeCountsTheRescaleTheWarmUpAndEveryWindowAChangeMustPersist() {
    Map<String, String> at =
        Map.of("forecast", "act", "window", "30s", "warm-up", "30s", "activation", "2");
    DemandForecast twice = new DemandForecast(Ds2Options.fromMap(at));
    // Before any rescale was seen, a window stands for it.
    assertEquals(Duration.ofSeconds(30 + 30 + 2 * 30), twice.lead());
    twice.rescaleTook(Duration.ofSeconds(21));
    twice.rescaleTook(Duration.ofSeconds(14));
    // The longest recent rescale, the warm-up, and two windows: a rise first seen one window
    // before the lead time ends is made a window later, as a measured one is.
    assertEquals(Duration.ofSeconds(21 + 30 + 2 * 30), twice.lead());
    Map<String, String> once = new HashMap<>(at);
    once.put("activation", "1");
    DemandForecast first = new DemandForecast(Ds2Options.fromMap(once));
    first.rescaleTook(Duration.ofSeconds(21));
    assertEquals(Duration.ofSeconds(21 + 30 + 30), first.lead());
  }
}
