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
    return smallestKeepingUp(p -> load * (1 + alpha * (p - 1)), shares, maxParallelism);
  }

  /**
   * As above, for a vertex whose load in instances depends on its parallelism as {@code loadAt} (an
   * operator chain: each chained operator's cost and scaling add up).
   */
  public static int smallestKeepingUp(
      java.util.function.IntToDoubleFunction loadAt, double[] shares, int maxParallelism) {
    for (int p = 1; p <= maxParallelism; p++) {
      double busiest = shares == null ? 1.0 / p : busiestShare(shares, p);
      if (loadAt.applyAsDouble(p) * busiest < KEEPS_UP_BUSY) {
        return p;
      }
    }
    throw new IllegalStateException("no parallelism up to " + maxParallelism + " keeps up");
  }

  /**
   * For a source chain reading {@code splits} even splits: the smallest p at which the busiest
   * subtask, reading ceil(splits / p) of them (the enumerator deals them out in turn; a rescale
   * from a checkpoint hands each subtask ceil or floor of them too), keeps up; {@code splits} if
   * none does (a subtask without a split reads nothing, so no more helps).
   */
  public static int smallestKeepingUpSplits(
      java.util.function.IntToDoubleFunction loadAt, int splits) {
    for (int p = 1; p <= splits; p++) {
      double busiest = Math.ceil((double) splits / p) / splits;
      if (loadAt.applyAsDouble(p) * busiest < KEEPS_UP_BUSY) {
        return p;
      }
    }
    return splits;
  }

  /**
   * As {@link #smallestKeepingUp}, for an input connected pointwise (FORWARD, RESCALE) to a
   * producer whose output splits as {@code producers} over its subtasks.
   */
  public static int smallestKeepingUpPointwise(
      double load, double alpha, double[] producers, int maxParallelism) {
    return smallestKeepingUpPointwise(p -> load * (1 + alpha * (p - 1)), producers, maxParallelism);
  }

  /** As above, the load depending on the parallelism as {@code loadAt}. */
  public static int smallestKeepingUpPointwise(
      java.util.function.IntToDoubleFunction loadAt, double[] producers, int maxParallelism) {
    for (int p = 1; p <= maxParallelism; p++) {
      if (loadAt.applyAsDouble(p) * max(pointwiseShares(producers, p)) < KEEPS_UP_BUSY) {
        return p;
      }
    }
    throw new IllegalStateException(
        "no parallelism up to "
            + maxParallelism
            + " keeps up with a load of "
            + loadAt.applyAsDouble(1));
  }

  /** The busiest subtask's share of the input at parallelism p. */
  public static double busiestShare(double[] shares, int p) {
    return max(subtaskShares(shares, p));
  }

  /** Each subtask's share at parallelism p of an input spread by key group as {@code shares}. */
  public static double[] subtaskShares(double[] shares, int p) {
    int m = shares.length;
    double[] perSubtask = new double[p];
    for (int g = 0; g < m; g++) {
      perSubtask[(int) ((long) g * p / m)] += shares[g];
    }
    return perSubtask;
  }

  /**
   * Each consumer's share at parallelism p of a pointwise input from n producers splitting as
   * {@code producers}: Flink's {@code VertexInputInfoComputationUtils} gives consumer j of p ≤ n
   * the producers [j n / p, (j + 1) n / p); for p &gt; n producer i feeds consumers [ceil(i p / n),
   * ceil((i + 1) p / n)) round-robin (FLINK-30213 replaces FORWARD by rebalancing over them).
   */
  public static double[] pointwiseShares(double[] producers, int p) {
    int n = producers.length;
    double[] result = new double[p];
    if (n >= p) {
      for (int j = 0; j < p; j++) {
        for (long i = (long) j * n / p; i < (long) (j + 1) * n / p; i++) {
          result[j] += producers[(int) i];
        }
      }
      return result;
    }
    for (int i = 0; i < n; i++) {
      int from = (int) (((long) i * p + n - 1) / n);
      int to = (int) (((long) (i + 1) * p + n - 1) / n);
      for (int j = from; j < to; j++) {
        result[j] = producers[i] / (to - from);
      }
    }
    return result;
  }

  private static double max(double[] values) {
    double max = 0;
    for (double s : values) {
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
