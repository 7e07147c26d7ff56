package io.ds2.model.keyed;

import java.util.Arrays;

/**
 * How a keyed vertex's input spreads over its key groups, as shares summing to 1, estimated from
 * one window at the parallelism the job ran at.
 *
 * <p>An unsaturated subtask's input rate is its demand; spread evenly over the key groups it owns
 * (one window cannot tell them apart). A saturated subtask's input rate is its capacity, not its
 * demand: what the saturated subtasks need together is the vertex's demand (from the graph walk)
 * less what the unsaturated ones took, and at least what they took themselves; it is split among
 * them by what each took.
 *
 * @param shares per key group, summing to 1 (all equal when nothing is known)
 * @param observedAt the parallelism the shares were measured at; at 1 every key group sits in one
 *     subtask and nothing is known about the spread
 */
public record KeyGroupLoad(double[] shares, int observedAt) {
  /** Busy fraction from which a subtask counts as saturated (its input is then its capacity). */
  public static final double SATURATED_BUSY = 0.95;

  public KeyGroupLoad {
    shares = shares.clone();
  }

  /** Even shares: what DS2 assumes, and all that is known before the first rescale. */
  public static KeyGroupLoad even(int maxParallelism) {
    double[] shares = new double[maxParallelism];
    Arrays.fill(shares, 1.0 / maxParallelism);
    return new KeyGroupLoad(shares, 1);
  }

  /**
   * @param inputRates records/s each subtask took in over the window (index = subtask)
   * @param busy each subtask's busy fraction over the window
   * @param demand records/s the whole vertex had to take in over the window (graph walk)
   */
  public static KeyGroupLoad estimate(
      int maxParallelism, double[] inputRates, double[] busy, double demand) {
    int p = inputRates.length;
    if (p == 1) {
      return even(maxParallelism);
    }
    double[] load = new double[maxParallelism];
    double unsaturated = 0;
    double saturatedTook = 0;
    int saturatedGroups = 0;
    for (int i = 0; i < p; i++) {
      if (busy[i] >= SATURATED_BUSY) {
        saturatedTook += inputRates[i];
        saturatedGroups += groups(i, maxParallelism, p);
      } else {
        spread(load, i, maxParallelism, p, inputRates[i]);
        unsaturated += inputRates[i];
      }
    }
    double saturatedNeed = Math.max(demand - unsaturated, saturatedTook);
    for (int i = 0; i < p; i++) {
      if (busy[i] >= SATURATED_BUSY) {
        double part =
            saturatedTook > 0
                ? inputRates[i] / saturatedTook
                : (double) groups(i, maxParallelism, p) / saturatedGroups;
        spread(load, i, maxParallelism, p, saturatedNeed * part);
      }
    }
    double total = Arrays.stream(load).sum();
    if (!(total > 0)) {
      return new KeyGroupLoad(even(maxParallelism).shares(), p);
    }
    for (int g = 0; g < maxParallelism; g++) {
      load[g] /= total;
    }
    return new KeyGroupLoad(load, p);
  }

  public int maxParallelism() {
    return shares.length;
  }

  /** True when the spread was never observed (parallelism 1): even shares are assumed. */
  public boolean assumedEven() {
    return observedAt == 1;
  }

  private static int groups(int i, int maxParallelism, int p) {
    return KeyGroups.last(i, maxParallelism, p) - KeyGroups.first(i, maxParallelism, p) + 1;
  }

  private static void spread(double[] load, int i, int maxParallelism, int p, double rate) {
    int from = KeyGroups.first(i, maxParallelism, p);
    int to = KeyGroups.last(i, maxParallelism, p);
    for (int g = from; g <= to; g++) {
      load[g] += rate / (to - from + 1);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyGroupLoad k
        && observedAt == k.observedAt
        && Arrays.equals(shares, k.shares);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(shares) + observedAt;
  }

  @Override
  public String toString() {
    return "KeyGroupLoad[" + shares.length + " key groups, observed at p=" + observedAt + "]";
  }
}
