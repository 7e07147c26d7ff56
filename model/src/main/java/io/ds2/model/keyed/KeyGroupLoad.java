package io.ds2.model.keyed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

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
 * <p>An immutable value: it owns its arrays and precomputes what sizing reads for every candidate
 * (prefix sums of the shares, where each cell ends, the largest share), so that checking a
 * candidate costs O(p), not O(max parallelism).
 */
public final class KeyGroupLoad {
  private static final int MAX_ITERATIONS = 200;
  private static final double CONVERGED = 1e-9;

  // per key group, summing to 1 (all equal when nothing is known)
  private final double[] shares;
  // prefix[g] = sum of shares[0..g-1]
  private final double[] prefix;
  // the parallelisms the shares were measured at, newest first; none or only 1 means every key
  // group sat in one subtask and nothing is known about the spread
  private final List<Integer> observedAt;
  // for each key group, the first and last key group of its cell
  private final int[] cellOf;
  private final int[] cellEnd;
  // coefficient of variation of single key groups' loads (0: even)
  private final double groupVariation;
  // what was measured, newest first: at a parallelism it ran at, a subtask's measured share
  // (averaged over its windows there) is better than any combination
  private final List<SubtaskShares> observations;
  private final double largestShare;

  /** Shares known group by group: no uncertainty left. */
  public KeyGroupLoad(double[] shares, List<Integer> observedAt) {
    this(shares.clone(), List.copyOf(observedAt), identity(shares.length), 0, List.of());
  }

  // Takes ownership of the arrays.
  private KeyGroupLoad(
      double[] shares,
      List<Integer> observedAt,
      int[] cellOf,
      double groupVariation,
      List<SubtaskShares> observations) {
    int m = shares.length;
    this.shares = shares;
    this.observedAt = observedAt;
    this.cellOf = cellOf;
    this.groupVariation = groupVariation;
    this.observations = observations;
    this.prefix = new double[m + 1];
    double largest = 0;
    for (int g = 0; g < m; g++) {
      prefix[g + 1] = prefix[g] + shares[g];
      largest = Math.max(largest, shares[g]);
    }
    this.largestShare = largest;
    this.cellEnd = new int[m];
    for (int g = m - 1; g >= 0; g--) {
      cellEnd[g] = g == m - 1 || cellOf[g + 1] != cellOf[g] ? g : cellEnd[g + 1];
    }
  }

  /** Even shares: what DS2 assumes, and all that is known before the first rescale. */
  public static KeyGroupLoad even(int maxParallelism) {
    return new KeyGroupLoad(
        evenShares(maxParallelism), List.of(), identity(maxParallelism), 0, List.of());
  }

  private static double[] evenShares(int m) {
    double[] shares = new double[m];
    Arrays.fill(shares, 1.0 / m);
    return shares;
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
    double[] x = evenShares(maxParallelism);
    List<Integer> at = new ArrayList<>(observations.size());
    boolean onlyAtOne = true;
    for (SubtaskShares o : observations) {
      at.add(o.parallelism());
      onlyAtOne &= o.parallelism() == 1;
    }
    if (onlyAtOne) { // assumed even, nothing to be uncertain about yet
      return new KeyGroupLoad(x, List.copyOf(at), identity(maxParallelism), 0, List.of());
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
    double total = 0;
    for (double share : x) {
      total += share;
    }
    for (int g = 0; g < x.length; g++) {
      x[g] /= total;
    }
    return new KeyGroupLoad(
        x,
        List.copyOf(at),
        cells(maxParallelism, observations),
        variation(observations),
        List.copyOf(observations));
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
            .max(Comparator.comparingInt(SubtaskShares::parallelism))
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
  public Optional<SubtaskShares> measuredAt(int p) {
    for (SubtaskShares o : observations) {
      if (o.parallelism() == p) {
        return Optional.of(o);
      }
    }
    return Optional.empty();
  }

  public int maxParallelism() {
    return shares.length;
  }

  /** Per key group, summing to 1 (a copy). */
  public double[] shares() {
    return shares.clone();
  }

  /** The share of key groups {@code from..to} (inclusive). */
  public double shareOf(int from, int to) {
    return prefix[to + 1] - prefix[from];
  }

  /** The share of the most loaded key group. */
  public double largestShare() {
    return largestShare;
  }

  double share(int keyGroup) {
    return shares[keyGroup];
  }

  /** The first key group of the cell {@code keyGroup} lies in. */
  int cellStart(int keyGroup) {
    return cellOf[keyGroup];
  }

  /** The last key group of the cell {@code keyGroup} lies in. */
  int cellEnd(int keyGroup) {
    return cellEnd[keyGroup];
  }

  /** Coefficient of variation of single key groups' loads (0: even). */
  public double groupVariation() {
    return groupVariation;
  }

  /** The parallelisms the shares were measured at, newest first. */
  public List<Integer> observedAt() {
    return observedAt;
  }

  /** What was measured, newest first. */
  public List<SubtaskShares> observations() {
    return observations;
  }

  /** True when the spread was never observed (only at parallelism 1): even shares are assumed. */
  public boolean assumedEven() {
    for (int p : observedAt) {
      if (p != 1) {
        return false;
      }
    }
    return true;
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
      for (int g = KeyGroups.first(i, m, p), last = KeyGroups.last(i, m, p); g <= last; g++) {
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
