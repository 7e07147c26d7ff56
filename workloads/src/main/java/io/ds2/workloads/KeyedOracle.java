package io.ds2.workloads;

/**
 * The smallest parallelism at which an operator keeps up: at which its busiest subtask, under
 * Flink's key-group assignment of the operator's real key distribution, is busy less than {@link
 * #KEEPS_UP_BUSY} of the time. The margin covers the per-record overhead the sleep-based cost does
 * not include (Flink's own work per record, measured at about 1 % here) and matches the "no subtask
 * 98 % busy" test of keeping up.
 */
public final class KeyedOracle {
  /** Busy fraction below which a subtask keeps up. */
  public static final double KEEPS_UP_BUSY = 0.98;

  private KeyedOracle() {}

  /**
   * @param load the operator's load in instances at parallelism 1 (input rate x cost)
   * @param alpha cost growth per extra instance (sub-linear scaling)
   * @param shares per key group, summing to 1; null for an evenly spread input
   * @param maxParallelism the vertex's max parallelism (the last candidate)
   */
  public static int smallestKeepingUp(
      double load, double alpha, double[] shares, int maxParallelism) {
    for (int p = 1; p <= maxParallelism; p++) {
      double busiest = shares == null ? 1.0 / p : busiestShare(shares, p);
      if (load * (1 + alpha * (p - 1)) * busiest < KEEPS_UP_BUSY) {
        return p;
      }
    }
    throw new IllegalStateException(
        "no parallelism up to " + maxParallelism + " keeps up with a load of " + load);
  }

  /** The busiest subtask's share of the input at parallelism p. */
  public static double busiestShare(double[] shares, int p) {
    int m = shares.length;
    double[] perSubtask = new double[p];
    for (int g = 0; g < m; g++) {
      perSubtask[(int) ((long) g * p / m)] += shares[g];
    }
    double max = 0;
    for (double s : perSubtask) {
      max = Math.max(max, s);
    }
    return max;
  }

  /** Flink's max parallelism for an operator that sets none, started at {@code parallelism}. */
  public static int defaultMaxParallelism(int parallelism) {
    return org.apache.flink.runtime.state.KeyGroupRangeAssignment.computeDefaultMaxParallelism(
        parallelism);
  }
}
