package io.ds2.core.options;

import java.time.Duration;

/**
 * The forecast's settings, part of {@link Ds2Options}.
 *
 * @param mode off, advise (forecast shown, nothing changed) or act (scale-ups may come from it)
 * @param period the season of the load (a day)
 * @param bucket a step of the demand history (the forecast's resolution)
 * @param maxError the largest error, as a share of the demand, at which a forecast is trusted
 */
public record ForecastSettings(Mode mode, Duration period, Duration bucket, double maxError) {
  /** What the forecast may do. */
  public enum Mode {
    OFF,
    ADVISE,
    ACT
  }

  /** Steps in a period, and at most so many (a day of 5 s buckets). */
  static final int MAX_STEPS = 20_000;

  /** Days of history kept at least (two weeks: a weekly pattern later). */
  static final Duration HISTORY = Duration.ofDays(14);

  public ForecastSettings {
    if (bucket.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new InvalidOptionException(
          Ds2Options.FORECAST_BUCKET, Durations.format(bucket), "must be at least 1s");
    }
    long steps = period.toMillis() / bucket.toMillis();
    if (steps < 4 || steps > MAX_STEPS || period.toMillis() % bucket.toMillis() != 0) {
      throw new InvalidOptionException(
          Ds2Options.FORECAST_PERIOD,
          Durations.format(period),
          "must be a whole number of forecast-bucket ("
              + Durations.format(bucket)
              + "), between 4 and "
              + MAX_STEPS
              + " of them");
    }
    Checks.range(Ds2Options.FORECAST_MAX_ERROR, maxError, 0, false, 1, "must be in (0, 1]");
  }

  /** Steps of the season. */
  public int periodSteps() {
    return (int) (period.toMillis() / bucket.toMillis());
  }

  /** The latest steps a forecast must have got right: an hour, or an eighth of a period. */
  public int recentSteps() {
    long hour = Duration.ofHours(1).toMillis() / bucket.toMillis();
    return (int) Math.max(1, Math.min(periodSteps() / 8, hour));
  }

  /**
   * Steps of history kept: two weeks (or three periods if longer) of complete steps, and the step
   * being measured, which the forecast does not use until it is complete.
   */
  public int historySteps() {
    long twoWeeks = HISTORY.toMillis() / bucket.toMillis();
    return (int) Math.min(Math.max(twoWeeks, 3L * periodSteps()), 3L * MAX_STEPS * 7) + 1;
  }

  static Mode mode(String text) {
    return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "off" -> Mode.OFF;
      case "advise" -> Mode.ADVISE;
      case "act" -> Mode.ACT;
      default -> throw new IllegalArgumentException("must be off, advise or act");
    };
  }
}
