package io.ds2.core.forecast;

/**
 * One series' Holt-Winters smoothing weights, chosen once a period and reused at every step in
 * between: choosing them searches thousands of passes over two weeks of steps (16 ms a source
 * measured, 1.6 s for 100 sources on one decision), running the model with them is one pass. The
 * first choice of each series is staggered by an offset of its own, so that the sources of a job
 * are not all chosen anew at the same step a period later.
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

  private final double[][] weights = new double[Role.values().length][];
  private final long[] chosenAt = new long[Role.values().length];
  private final int offset;

  /**
   * @param offset steps by which the first choice counts as older than it is, in [0, period)
   */
  KeptWeights(int offset) {
    this.offset = offset;
  }

  /** An offset in [0, period) that spreads the series' choices over the period. */
  static int offsetOf(String name, int period) {
    return Math.floorMod(name.hashCode(), period);
  }

  /**
   * Series shorter than this many periods are fitted afresh at every step, their weights not kept:
   * chosen on a period and a step or two (the first forecast's held-out fit), weights say little
   * and move with every step (measured: a 20-step day's first choice, kept, forecast the held-out
   * day 16 % off where weights chosen a few steps later did 9.5 %), and fitting so short a series
   * costs a seventh of a two-week one.
   */
  static final int KEPT_FROM_PERIODS = 2;

  /** The model of {@code y} for {@code role} at step {@code step}: with kept weights, or fitted. */
  HoltWinters fit(Role role, double[] y, int period, long step) {
    if (y.length < KEPT_FROM_PERIODS * period) {
      return HoltWinters.fit(y, period);
    }
    int r = role.ordinal();
    if (weights[r] != null && step - chosenAt[r] < period && step >= chosenAt[r]) {
      return HoltWinters.withWeights(y, period, weights[r]);
    }
    HoltWinters model = HoltWinters.fit(y, period);
    boolean first = weights[r] == null;
    weights[r] = model.weights();
    chosenAt[r] = first ? step - offset : step;
    return model;
  }
}
