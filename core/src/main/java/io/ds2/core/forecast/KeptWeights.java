package io.ds2.core.forecast;

/**
 * One series' Holt-Winters smoothing weights, chosen once a day and reused at every step in
 * between: choosing them searches thousands of passes over two weeks of steps (16 ms a source
 * measured, 1.6 s for 100 sources on one decision), running the model with them is one pass. The
 * first choice of each series is staggered by an offset of its own, so that the sources of a job
 * are not all chosen anew at the same step a day later. Weights are kept per fit, per season
 * (daily, and weekly once two weeks are seen) and per form (with a trend or without).
 */
final class KeptWeights {
  /**
   * The fits a forecast makes: on the history before the held-out period, before the latest steps,
   * and on all of it.
   */
  enum Role {
    HOLDOUT,
    RECENT,
    FULL
  }

  private final int day;
  private static final int SLOTS = 2 * 2 * Role.values().length;

  private final double[][] weights = new double[SLOTS][];
  private final long[] chosenAt = new long[SLOTS];
  private final int offset;

  /**
   * @param day steps in a day (the daily season)
   * @param offset steps by which the first choice counts as older than it is, in [0, day)
   */
  KeptWeights(int day, int offset) {
    this.day = day;
    this.offset = offset;
  }

  /** An offset in [0, period) that spreads the series' choices over the period. */
  static int offsetOf(String name, int period) {
    return Math.floorMod(name.hashCode(), period);
  }

  /**
   * Series with less than this many days of one-step errors after their season's first period are
   * fitted afresh at every step, their weights not kept: chosen on a period and a step or two (the
   * first forecast's held-out fit), weights say little and move with every step (measured: a
   * 20-step day's first choice, kept, forecast the held-out day 16 % off where weights chosen a few
   * steps later did 9.5 %), and fitting so short a series costs a seventh of a two-week one.
   */
  static final int KEPT_FROM_DAYS = 1;

  /**
   * The model of {@code y} with a season of {@code period} steps (a day or a week), of the given
   * form (with a trend or without), for {@code role} at step {@code step}: with kept weights, or
   * fitted.
   */
  HoltWinters fit(Role role, double[] y, int period, HoltWinters.Trend form, long step) {
    if (y.length < period + KEPT_FROM_DAYS * day) {
      return HoltWinters.fit(y, period, form);
    }
    int roles = Role.values().length;
    int r = role.ordinal() + (period > day ? roles : 0) + form.ordinal() * 2 * roles;
    if (weights[r] != null && step - chosenAt[r] < day && step >= chosenAt[r]) {
      return HoltWinters.withWeights(y, period, form, weights[r]);
    }
    HoltWinters model = HoltWinters.fit(y, period, form);
    boolean first = weights[r] == null;
    weights[r] = model.weights();
    chosenAt[r] = first ? step - offset : step;
    return model;
  }
}
