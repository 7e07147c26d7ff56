package io.ds2.model.keyed;

import java.util.Arrays;
import java.util.List;

/**
 * How a keyed vertex's input spreads over its key groups, as shares summing to 1, combined from the
 * windows observed at one or more parallelisms.
 *
 * <p>Each observation says how much of the input each subtask's contiguous key-group range needed;
 * inside a range one window cannot tell the key groups apart. Parallelisms partition the key groups
 * differently, so several observations pin the load down more finely than one. They are combined by
 * iterative proportional fitting: starting from even shares, each range is scaled in turn to the
 * share it was observed to need, until every observation fits. The result is the spread closest to
 * even (in relative entropy) that agrees with all of them: nothing is assumed about a range beyond
 * what was measured.
 *
 * <p>What the observations cannot tell is how the load spreads inside a <em>cell</em>: a run of key
 * groups that every observation saw in one subtask (the common refinement of their ranges). A
 * candidate subtask that takes part of a cell may get more or less of it than the even spread says;
 * {@code groupVariation} (how much key groups differ, estimated from how much the observed ranges
 * differ) sizes that uncertainty.
 *
 * @param shares per key group, summing to 1 (all equal when nothing is known)
 * @param observedAt the parallelisms the shares were measured at, newest first; none or only 1
 *     means every key group sat in one subtask and nothing is known about the spread
 * @param cellOf for each key group, the first key group of its cell
 * @param groupVariation coefficient of variation of single key groups' loads (0: even)
 * @param observations what was measured, newest first: at a parallelism it ran at, a subtask's
 *     measured share (averaged over its windows there) is better than any combination
 */
public record KeyGroupLoad(
    double[] shares,
    List<Integer> observedAt,
    int[] cellOf,
    double groupVariation,
    List<SubtaskShares> observations) {
  private static final int MAX_ITERATIONS = 200;
  private static final double CONVERGED = 1e-9;

  public KeyGroupLoad {
    shares = shares.clone();
    observedAt = List.copyOf(observedAt);
    cellOf = cellOf.clone();
    observations = List.copyOf(observations);
  }

  /** Shares known group by group: no uncertainty left. */
  public KeyGroupLoad(double[] shares, List<Integer> observedAt) {
    this(shares, observedAt, identity(shares.length), 0, List.of());
  }

  /** Even shares: what DS2 assumes, and all that is known before the first rescale. */
  public static KeyGroupLoad even(int maxParallelism) {
    double[] shares = new double[maxParallelism];
    Arrays.fill(shares, 1.0 / maxParallelism);
    return new KeyGroupLoad(shares, List.of());
  }

  private static int[] identity(int m) {
    int[] cells = new int[m];
    for (int g = 0; g < m; g++) {
      cells[g] = g;
    }
    return cells;
  }

  /**
   * The spread that fits every observation (newest first, all at {@code maxParallelism}); when they
   * contradict each other, the newest ones win (they are fitted last).
   */
  public static KeyGroupLoad combine(int maxParallelism, List<SubtaskShares> observations) {
    double[] x = even(maxParallelism).shares();
    List<Integer> at = observations.stream().map(SubtaskShares::parallelism).toList();
    if (observations.stream().allMatch(o -> o.parallelism() == 1)) {
      return new KeyGroupLoad(x, at); // assumed even, nothing to be uncertain about yet
    }
    if (observations.size() == 1) {
      fit(x, observations.get(0)); // one observation is fitted exactly in one pass
    }
    for (int round = 0; observations.size() > 1 && round < MAX_ITERATIONS; round++) {
      for (int k = observations.size() - 1; k >= 0; k--) {
        fit(x, observations.get(k));
      }
      if (observations.stream().allMatch(o -> misfit(x, o) < CONVERGED)) {
        break;
      }
    }
    double total = Arrays.stream(x).sum();
    for (int g = 0; g < x.length; g++) {
      x[g] /= total;
    }
    return new KeyGroupLoad(
        x, at, cells(maxParallelism, observations), variation(observations), observations);
  }

  /** The first key group of each key group's cell: runs no observation's ranges split. */
  private static int[] cells(int m, List<SubtaskShares> observations) {
    boolean[] starts = new boolean[m];
    starts[0] = true;
    for (SubtaskShares o : observations) {
      for (int i = 0; i < o.parallelism(); i++) {
        starts[KeyGroups.first(i, m, o.parallelism())] = true;
      }
    }
    int[] cellOf = new int[m];
    for (int g = 0; g < m; g++) {
      cellOf[g] = starts[g] ? g : cellOf[g - 1];
    }
    return cellOf;
  }

  /**
   * How much single key groups differ, from the observation at the highest parallelism: if groups
   * vary independently, ranges of n groups vary sqrt(n) times less than single groups.
   */
  private static double variation(List<SubtaskShares> observations) {
    SubtaskShares o =
        observations.stream()
            .max(java.util.Comparator.comparingInt(SubtaskShares::parallelism))
            .orElseThrow();
    int p = o.parallelism();
    int m = o.maxParallelism();
    if (p < 2) {
      return 0;
    }
    double[] perGroup = new double[p];
    double mean = 0;
    for (int i = 0; i < p; i++) {
      perGroup[i] = o.shares()[i] / (KeyGroups.last(i, m, p) - KeyGroups.first(i, m, p) + 1);
      mean += perGroup[i] / p;
    }
    double var = 0;
    for (int i = 0; i < p; i++) {
      var += (perGroup[i] - mean) * (perGroup[i] - mean) / (p - 1);
    }
    return mean > 0 ? Math.min(1, Math.sqrt(var) / mean * Math.sqrt((double) m / p)) : 0;
  }

  /** The observation made at parallelism {@code p}, if the vertex ran at it. */
  public java.util.Optional<SubtaskShares> measuredAt(int p) {
    return observations.stream().filter(o -> o.parallelism() == p).findFirst();
  }

  public int maxParallelism() {
    return shares.length;
  }

  /** True when the spread was never observed (only at parallelism 1): even shares are assumed. */
  public boolean assumedEven() {
    return observedAt.stream().allMatch(p -> p == 1);
  }

  /**
   * How far these shares are from an observation: the largest difference between a subtask's
   * observed share and the share its range holds here, relative to an even share.
   */
  public double misfit(SubtaskShares o) {
    return misfit(shares, o);
  }

  private static double misfit(double[] x, SubtaskShares o) {
    int p = o.parallelism();
    int m = x.length;
    double worst = 0;
    for (int i = 0; i < p; i++) {
      double held = 0;
      for (int g = KeyGroups.first(i, m, p); g <= KeyGroups.last(i, m, p); g++) {
        held += x[g];
      }
      worst = Math.max(worst, Math.abs(held - o.shares()[i]) * p);
    }
    return worst;
  }

  private static void fit(double[] x, SubtaskShares o) {
    int p = o.parallelism();
    int m = x.length;
    for (int i = 0; i < p; i++) {
      int from = KeyGroups.first(i, m, p);
      int to = KeyGroups.last(i, m, p);
      double held = 0;
      for (int g = from; g <= to; g++) {
        held += x[g];
      }
      double want = o.shares()[i];
      for (int g = from; g <= to; g++) {
        x[g] = held > 0 ? x[g] * want / held : want / (to - from + 1);
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyGroupLoad k
        && observedAt.equals(k.observedAt)
        && groupVariation == k.groupVariation
        && Arrays.equals(cellOf, k.cellOf)
        && Arrays.equals(shares, k.shares);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(shares) + observedAt.hashCode();
  }

  @Override
  public String toString() {
    return "KeyGroupLoad[" + shares.length + " key groups, observed at p=" + observedAt + "]";
  }
}
