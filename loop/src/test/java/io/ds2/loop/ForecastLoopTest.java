package io.ds2.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.forecast.Outlook;
import io.ds2.core.forecast.SeasonalForecaster;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.scaler.JobScaler;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.core.scaler.StateStore;
import io.ds2.testkit.FakeJob;
import io.ds2.testkit.FluidJob;
import io.ds2.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The forecast in the loop, on compressed days (20 simulated minutes each, history in 1-minute
 * steps): the real core, model and policy on the shared fake job, time moved by the loop's sleeps.
 * Work costs 10 ms a record: 100 records/s at night need 1 instance, the 400/s midday peak 4.
 */
class ForecastLoopTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final double DAY_S = 20 * 60;

  /** Night 100/s; from minute 6 a ramp to 400/s at minute 8, held to minute 14, down by 15. */
  private static double daily(double t) {
    double m = (t % DAY_S) / 60;
    if (m < 6 || m >= 15) {
      return 100;
    }
    if (m < 8) {
      return 100 + 150 * (m - 6);
    }
    return m < 14 ? 400 : 400 - 300 * (m - 14);
  }

  /** One run over {@code days} with the forecast as {@code mode} says. */
  private static final class Run {
    final ManualClock clock = new ManualClock(T0);
    final FakeJob job =
        new FakeJob(
                "job",
                clock,
                100,
                List.of(
                    new FluidJob.Stage("s", "Source: Events", 0, 1),
                    new FluidJob.Stage("w", "Work", 0.01, 0)))
            .restartTakes(Duration.ofSeconds(2));
    final List<Decision> decisions = new ArrayList<>();
    final List<ScalerEvent.Forecasted> forecasts = new ArrayList<>();
    // Each decision with the forecast reported for its window (act and advise).
    final java.util.Map<Decision, ScalerEvent.Forecasted> forecastOf = new java.util.HashMap<>();
    // Seconds of day 4 during which Work ran below what the demand of that second needed.
    double underOnLastDay;
    int rescales;
    // Each applied rescale's time from its request to running.
    final List<Duration> runningAfter = new ArrayList<>();

    Run(String forecast, int days, DoubleUnaryOperator demand) throws Exception {
      this(forecast, days, demand, days, StateStore.inMemory(), null);
    }

    /**
     * As above, with the controller restarted after {@code restartAfterDays}: the first loop saves
     * to {@code before}, the second (a new scaler, as a restarted operator or a new leader) loads
     * from {@code after}.
     */
    Run(
        String forecast,
        int days,
        DoubleUnaryOperator demand,
        int restartAfterDays,
        StateStore before,
        StateStore after)
        throws Exception {
      Instant restart = T0.plusSeconds((long) (Math.min(days, restartAfterDays) * DAY_S));
      loop(forecast, days, demand, before)
          .run(() -> clock.instant().isBefore(restart), Long.MAX_VALUE);
      restartedAt = forecasts.size();
      if (restartAfterDays < days) {
        Instant end = T0.plusSeconds((long) (days * DAY_S));
        loop(forecast, days, demand, after)
            .run(() -> clock.instant().isBefore(end), Long.MAX_VALUE);
      }
    }

    // The first forecast of the loop after the restart (its index in forecasts).
    int restartedAt;

    private ControlLoop loop(
        String forecast, int days, DoubleUnaryOperator demand, StateStore store) {
      ScalingPolicy policy =
          new ScalingPolicy(
              LoopTestSupport.options(
                  "window", "10s",
                  "warm-up", "5s",
                  "sample-interval", "1s",
                  "scale-down-delay", "30s",
                  "forecast", forecast,
                  "forecast-period", "20m",
                  "forecast-bucket", "1m"));
      return new ControlLoop(
          job,
          new JobScaler(policy, DemandScenario.measured(), Mode.ACT, job.pollInterval()),
          job,
          store,
          (JobTopology t, ScalerEvent e) -> {
            if (e instanceof ScalerEvent.Decided d) {
              decisions.add(d.decision());
              if (!forecasts.isEmpty()) {
                forecastOf.put(d.decision(), forecasts.get(forecasts.size() - 1));
              }
              if (d.decision().action() instanceof Action.Rescale) {
                rescales++;
              }
            } else if (e instanceof ScalerEvent.Forecasted f) {
              forecasts.add(f);
            } else if (e instanceof ScalerEvent.Rescaled r
                && r.outcome() instanceof RescaleOutcome.Applied a) {
              runningAfter.add(a.took());
            }
          },
          d -> {
            // Demand follows the day while the loop sleeps, a second at a time.
            Instant until = clock.instant().plus(d);
            while (clock.instant().isBefore(until)) {
              Duration step = Duration.ofSeconds(1);
              Duration left = Duration.between(clock.instant(), until);
              clock.advance(left.compareTo(step) < 0 ? left : step);
              double t = Duration.between(T0, clock.instant()).toMillis() / 1000.0;
              job.fluid().demand(demand.applyAsDouble(t));
              if (t >= (days - 1) * DAY_S
                  && job.fluid().parallelism().getOrDefault("w", 1)
                      < Math.ceil(demand.applyAsDouble(t) / 100 - 1e-9)) {
                underOnLastDay += step.toMillis() / 1000.0;
              }
            }
          },
          clock);
    }
  }

  @Test
  void adviseShowsTheForecastAndChangesNothing() throws Exception {
    Run off = new Run("off", 4, ForecastLoopTest::daily);
    Run advise = new Run("advise", 4, ForecastLoopTest::daily);
    assertEquals(
        off.decisions.stream().map(Decision::action).toList(),
        advise.decisions.stream().map(Decision::action).toList());
    assertTrue(off.forecasts.isEmpty());
    // Nothing is forecast before a day to learn from and a day to test on; then it is.
    assertTrue(advise.forecasts.get(0).outlook() instanceof Outlook.None);
    assertTrue(
        advise.forecasts.stream()
            .anyMatch(f -> f.outlook() instanceof Outlook.Ahead && !f.wouldNeed().isEmpty()),
        "a forecast above the measured demand on the last days");
    assertTrue(advise.forecasts.stream().noneMatch(ScalerEvent.Forecasted::acted));
  }

  @Test
  void actingOnItIsAheadOfTheRampAndNeverScalesDownOnAForecast() throws Exception {
    Run reactive = new Run("off", 4, ForecastLoopTest::daily);
    Run predictive = new Run("act", 4, ForecastLoopTest::daily);
    System.out.printf(
        "day 4 under-provisioned: reactive %.0f s, predictive %.0f s; rescales %d / %d%n",
        reactive.underOnLastDay, predictive.underOnLastDay, reactive.rescales, predictive.rescales);
    assertTrue(
        predictive.underOnLastDay <= 0.5 * reactive.underOnLastDay,
        predictive.underOnLastDay + " s under vs " + reactive.underOnLastDay);
    assertTrue(predictive.forecasts.stream().anyMatch(ScalerEvent.Forecasted::acted));
    // The evening's scale-downs, after the same delay, go to the last windows' need with a
    // forecast acting, to the highest since the need fell without.
    assertTrue(hasReason(predictive, ReasonCode.SCALE_DOWN_TO_LATEST));
    assertFalse(hasReason(reactive, ReasonCode.SCALE_DOWN_TO_LATEST));
    // A scale-down only where the measured demand asked for one (the forecast may hold it up).
    for (Decision d : predictive.decisions) {
      if (d.action() instanceof Action.Rescale r) {
        ScalerEvent.Forecasted f = predictive.forecastOf.get(d);
        for (VertexEstimate v : d.estimate().vertices()) {
          int target = r.parallelism().getOrDefault(v.vertexId(), v.currentParallelism());
          if (target < v.currentParallelism()) {
            assertTrue(
                f.measuredNeed().get(v.vertexId()) < v.currentParallelism(),
                "a scale-down from a forecast: " + d);
          }
        }
      }
    }
  }

  private static boolean hasReason(Run run, ReasonCode code) {
    return run.decisions.stream()
        .flatMap(d -> d.vertices().stream())
        .flatMap(v -> v.reasons().stream())
        .anyMatch(r -> r.code() == code);
  }

  /** {@link #daily} with the midday load dipping to the night's for a minute, 10 to 11. */
  private static double dipping(double t) {
    double m = (t % DAY_S) / 60;
    return m >= 10 && m < 11 ? 100 : daily(t);
  }

  @Test
  void theLeadTimeCountsARescaleUntilTheJobCaughtUp() throws Exception {
    Run predictive = new Run("act", 4, ForecastLoopTest::daily);
    Duration running = predictive.runningAfter.stream().max(Duration::compareTo).orElseThrow();
    Duration lead =
        predictive.forecasts.stream()
            .map(ScalerEvent.Forecasted::outlook)
            .filter(o -> o instanceof Outlook.Ahead)
            .map(o -> ((Outlook.Ahead) o).lead())
            .max(Duration::compareTo)
            .orElseThrow();
    // Request to running is 2 s; caught up (the sources read the downtime's records, then waited
    // for records between two 1 s polls) a few seconds later. The lead adds the warm-up (5 s) and
    // the one window (10 s) a change must persist at these tests' activation (1).
    Duration floor = running.plusSeconds(15);
    assertTrue(lead.compareTo(floor) > 0, lead + " after " + running + " to running");
    assertTrue(lead.compareTo(floor.plusSeconds(5)) <= 0, lead.toString());
  }

  @Test
  void theForecastHoldsNoScaleDownBeyondItsLeadTime() throws Exception {
    Run reactive = new Run("off", 4, ForecastLoopTest::dipping);
    Run predictive = new Run("act", 4, ForecastLoopTest::dipping);
    Instant dayThree = T0.plusSeconds((long) (2 * DAY_S));
    long reactiveRescales = rescalesFrom(reactive, dayThree);
    long predictiveRescales = rescalesFrom(predictive, dayThree);
    System.out.printf(
        "days 3-4 rescales: reactive %d, predictive %d; dips stepped down: %d / %d%n",
        reactiveRescales,
        predictiveRescales,
        dipsSteppedDown(reactive, dayThree),
        dipsSteppedDown(predictive, dayThree));
    // The dip lasts twice the scale-down delay: once the lower need has lasted the delay, Work
    // steps down with the forecast as without it (the forecast raises it again a lead time before
    // the load returns, and looks no further).
    assertEquals(2, dipsSteppedDown(reactive, dayThree));
    assertEquals(2, dipsSteppedDown(predictive, dayThree));
    assertTrue(
        predictiveRescales <= reactiveRescales,
        predictiveRescales + " rescales vs " + reactiveRescales);
  }

  /** How many of the days from {@code from} had Work stepped down during the midday dip. */
  private static long dipsSteppedDown(Run run, Instant from) {
    return run.decisions.stream()
        .filter(d -> d.time().isAfter(from) && d.action() instanceof Action.Rescale)
        .filter(
            d -> {
              double m = (Duration.between(T0, d.time()).toMillis() / 1000.0 % DAY_S) / 60;
              int current = d.estimate().vertex("w").orElseThrow().currentParallelism();
              int target = ((Action.Rescale) d.action()).parallelism().getOrDefault("w", current);
              return m >= 10 && m < 11 && target < current;
            })
        .map(d -> (long) (Duration.between(T0, d.time()).toSeconds() / DAY_S))
        .distinct()
        .count();
  }

  private static long rescalesFrom(Run run, Instant from) {
    return run.decisions.stream()
        .filter(d -> d.time().isAfter(from) && d.action() instanceof Action.Rescale)
        .count();
  }

  @Test
  void aRestartedControllerForecastsFromTheSavedHistoryAtOnce() throws Exception {
    StateStore kept = StateStore.inMemory();
    Run restarted = new Run("act", 4, ForecastLoopTest::daily, 3, kept, kept);
    // The new scaler's first window already has a forecast: three days came with the state.
    ScalerEvent.Forecasted first = restarted.forecasts.get(restarted.restartedAt);
    assertInstanceOf(Outlook.Ahead.class, first.outlook(), first.toString());
    Run reactive = new Run("off", 4, ForecastLoopTest::daily);
    assertTrue(
        restarted.underOnLastDay <= 0.5 * reactive.underOnLastDay,
        restarted.underOnLastDay + " s under vs " + reactive.underOnLastDay);
    // Lost with the controller (a store that kept nothing): two days to learn again.
    Run forgot =
        new Run("act", 4, ForecastLoopTest::daily, 3, StateStore.inMemory(), StateStore.inMemory());
    ScalerEvent.Forecasted none = forgot.forecasts.get(forgot.restartedAt);
    assertEquals(
        SeasonalForecaster.Reason.NOT_ENOUGH_HISTORY,
        assertInstanceOf(Outlook.None.class, none.outlook()).reason());
  }

  @Test
  void aDayThatBreaksThePatternIsNotForecast() throws Exception {
    // Day 4 is a holiday: the night's 100/s all day.
    Run holiday = new Run("act", 4, t -> t >= 3 * DAY_S ? 100 : daily(t));
    List<ScalerEvent.Forecasted> lastDay =
        holiday.forecasts.subList(holiday.forecasts.size() * 3 / 4, holiday.forecasts.size());
    assertTrue(
        lastDay.stream()
            .anyMatch(
                f ->
                    f.outlook() instanceof Outlook.None n
                        && n.reason() == SeasonalForecaster.Reason.PATTERN_BROKEN),
        "the broken pattern is said");
    // No rescale on day 4 comes from the forecast once the pattern is seen broken.
    Instant lastDayStart = T0.plusSeconds((long) (3 * DAY_S + 8 * 60));
    for (Decision d : holiday.decisions) {
      if (d.time().isAfter(lastDayStart)) {
        assertTrue(
            d.estimate().vertices().stream()
                .flatMap(v -> v.reasons().stream())
                .noneMatch(x -> x.code() == ReasonCode.FORECAST_AHEAD),
            d.toString());
      }
    }
  }
}
