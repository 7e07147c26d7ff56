package io.ds2.core.forecast;

import java.util.Locale;

/**
 * Whether recurring demand can be forecast, and the forecast: additive Holt-Winters fitted to a
 * bucketed arrival-rate series, trusted only when it would have forecast the history itself. Its
 * error is measured twice, as a forecast that had not seen what it is compared with: over a period
 * held out before the most recent steps (fitted on what came before, forecast a period ahead: no
 * pattern, no forecast), and over the most recent steps (fitted on all but them: a pattern broken
 * today, a holiday, shows there). Either above the allowed error, or less than a period to learn
 * from before the holdout: no forecast, and why. Once two weeks are seen, a model with a weekly
 * season (weekdays unlike weekends) is fitted too, and followed where it would have forecast the
 * held-out day better than the daily one. Each season is fitted with a trend and without, and the
 * form that would have forecast the held-out period better is followed: a trend's weight chosen on
 * a period and a few steps can follow a ramp inside the day (a morning's) and carry it a whole
 * period ahead (measured on the diurnal benchmark: its held-out day forecast 213 % off, so no
 * forecast at lunch, where the form without a trend was 18 % off).
 *
 * <p>Errors are weighted absolute percentage errors, sum |forecast - actual| / sum actual: a
 * relative error that stays defined at zero demand.
 */
public final class SeasonalForecaster {
  /** Why there is no forecast. */
  public enum Reason {
    /** Less than a period before the held-out one, or too many gaps. */
    NOT_ENOUGH_HISTORY,
    /** It would have forecast the last period with too large an error. */
    HOLDOUT_ERROR,
    /** It would have forecast the most recent steps with too large an error. */
    PATTERN_BROKEN
  }

  /** The season a forecast follows. */
  public enum Season {
    /** A period of the configured length (a day). */
    DAILY,
    /** Seven periods: a week, once two weeks are seen. */
    WEEKLY
  }

  /** Periods in the weekly season. */
  static final int PERIODS_A_WEEK = 7;

  /** What the forecaster says. */
  public sealed interface Result {}

  /**
   * @param ahead the forecast for each of the next steps (index 0: the step after the last)
   * @param holdoutError its error over the held-out last period
   * @param recentError its error over the most recent steps
   * @param season the season it follows
   * @param form whether it follows a trend
   */
  public record Forecast(
      double[] ahead,
      double holdoutError,
      double recentError,
      Season season,
      HoltWinters.Trend form)
      implements Result {
    /** The highest forecast over the next {@code steps} steps. */
    public double peak(int steps) {
      double max = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < Math.min(steps, ahead.length); i++) {
        max = Math.max(max, ahead[i]);
      }
      return max;
    }
  }

  /** No forecast: {@code message} says why, in a line. */
  public record NoForecast(Reason reason, String message) implements Result {}

  /** Gaps beyond this share of the series: not enough history. */
  static final double MAX_GAPS = 0.1;

  private final int period;
  private final int recent;
  private final double maxError;

  /**
   * @param period steps in a season (a day of buckets)
   * @param recent how many of the latest steps must have been forecast well
   * @param maxError the largest weighted error trusted (e.g. 0.15)
   */
  public SeasonalForecaster(int period, int recent, double maxError) {
    if (period < 2 || recent < 1 || recent > period || !(maxError > 0)) {
      throw new IllegalArgumentException(
          "period >= 2, 1 <= recent <= period, maxError > 0; was "
              + period
              + ", "
              + recent
              + ", "
              + maxError);
    }
    this.period = period;
    this.recent = recent;
    this.maxError = maxError;
  }

  /**
   * @param series one value per step, oldest first; NaN for a step with no measurement
   * @param horizon how many steps ahead to forecast
   */
  public Result forecast(double[] series, int horizon) {
    return forecast(series, horizon, null, 0);
  }

  /**
   * As above, with the series' smoothing weights kept from step to step ({@code kept}, chosen anew
   * once a period) instead of chosen at every call: the same model at a pass's cost.
   *
   * @param step the index of the series' last step (consecutive calls: consecutive or equal)
   */
  Result forecast(double[] series, int horizon, KeptWeights kept, long step) {
    int needed = 2 * period + recent + 1;
    if (series.length < needed) {
      return new NoForecast(
          Reason.NOT_ENOUGH_HISTORY,
          String.format(
              Locale.ROOT,
              "%d of the %d steps needed (a period to learn from, a period and the latest %d"
                  + " steps held out to test it)",
              series.length,
              needed,
              recent));
    }
    int gaps = 0;
    for (double v : series) {
      gaps += Double.isNaN(v) ? 1 : 0;
    }
    if (gaps > MAX_GAPS * series.length) {
      return new NoForecast(
          Reason.NOT_ENOUGH_HISTORY,
          String.format(Locale.ROOT, "%d of %d steps have no measurement", gaps, series.length));
    }
    double[] y = filled(series);
    int n = y.length;
    // The held-out period ends where the recent steps begin: a model that fails there has no
    // pattern to go on; one that holds there but fails lately faces a pattern broken today.
    int tested = n - recent - period;
    double[] learnt = head(y, tested);
    // Two weeks seen: the weekly season has a week to start from and another to learn on. It is
    // followed only where it would have forecast the same held-out day better: a day unlike the
    // one before it (a Saturday after a Friday) the daily season cannot know. Likewise the form
    // without a trend, tried first, is left for one with a trend only where that did better.
    Season season = Season.DAILY;
    HoltWinters.Trend form = HoltWinters.Trend.NONE;
    double holdout = Double.POSITIVE_INFINITY;
    for (Season s : n >= 2 * PERIODS_A_WEEK * period ? Season.values() : DAILY_ONLY) {
      for (HoltWinters.Trend t : HoltWinters.Trend.values()) {
        double e =
            error(fit(kept, s, t, KeptWeights.Role.HOLDOUT, learnt, step), y, tested, period);
        if (e < holdout) {
          season = s;
          form = t;
          holdout = e;
        }
      }
    }
    if (holdout > maxError) {
      return new NoForecast(
          Reason.HOLDOUT_ERROR,
          String.format(
              Locale.ROOT,
              "it would have forecast a day of history %.0f %% off (at most %.0f %%)",
              100 * holdout,
              100 * maxError));
    }
    double lately =
        error(
            fit(kept, season, form, KeptWeights.Role.RECENT, head(y, n - recent), step),
            y,
            n - recent,
            recent);
    if (lately > maxError) {
      return new NoForecast(
          Reason.PATTERN_BROKEN,
          String.format(
              Locale.ROOT,
              "it would have forecast the last %d steps %.0f %% off (at most %.0f %%): the"
                  + " pattern is broken",
              recent,
              100 * lately,
              100 * maxError));
    }
    HoltWinters model = fit(kept, season, form, KeptWeights.Role.FULL, y, step);
    double[] ahead = new double[horizon];
    for (int h = 1; h <= horizon; h++) {
      ahead[h - 1] = Math.max(0, model.forecast(h));
    }
    return new Forecast(ahead, holdout, lately, season, form);
  }

  private static final Season[] DAILY_ONLY = {Season.DAILY};

  private HoltWinters fit(
      KeptWeights kept,
      Season season,
      HoltWinters.Trend form,
      KeptWeights.Role role,
      double[] y,
      long step) {
    int steps = season == Season.WEEKLY ? PERIODS_A_WEEK * period : period;
    return kept == null ? HoltWinters.fit(y, steps, form) : kept.fit(role, y, steps, form, step);
  }

  /** Weighted absolute percentage error of {@code model}'s forecasts for y[from, from + steps). */
  private static double error(HoltWinters model, double[] y, int from, int steps) {
    double err = 0;
    double sum = 0;
    for (int h = 1; h <= steps; h++) {
      double actual = y[from + h - 1];
      err += Math.abs(model.forecast(h) - actual);
      sum += Math.abs(actual);
    }
    return sum == 0 ? (err == 0 ? 0 : Double.POSITIVE_INFINITY) : err / sum;
  }

  private static double[] head(double[] y, int n) {
    return java.util.Arrays.copyOf(y, n);
  }

  /** Gaps filled linearly between their neighbours (at the ends, with the nearest value). */
  static double[] filled(double[] series) {
    double[] y = series.clone();
    int last = -1;
    for (int i = 0; i < y.length; i++) {
      if (Double.isNaN(y[i])) {
        continue;
      }
      if (last < 0) {
        java.util.Arrays.fill(y, 0, i, y[i]);
      } else {
        for (int j = last + 1; j < i; j++) {
          y[j] = y[last] + (y[i] - y[last]) * (j - last) / (i - last);
        }
      }
      last = i;
    }
    if (last >= 0) {
      java.util.Arrays.fill(y, last + 1, y.length, y[last]);
    }
    return y;
  }
}
