package io.ds2.core.keyed;

import java.util.ArrayList;
import java.util.Arrays;
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
 * <p>Iterative fitting scales whole ranges, so every key group of a cell always holds the same
 * share: the load is kept per cell (at most the sum of the observed parallelisms of them), and
 * checking a candidate costs O(p log cells), whatever the max parallelism. An immutable value.
 */
public final class KeyGroupLoad {
  private final int maxParallelism;
  // first key group of each cell, ascending from 0
  private final int[] cellStarts;
  // the share of one key group of each cell
  private final double[] perGroup;
  // cumulative[c] = the share of every key group before cell c
  private final double[] cumulative;
  private final double largestShare;
  // the parallelisms the shares were measured at, newest first; none or only 1 means every key
  // group sat in one subtask and nothing is known about the spread
  private final List<Integer> observedAt;
  // coefficient of variation of single key groups' loads (0: even)
  private final double groupVariation;
  // what was measured, newest first: at a parallelism it ran at, a subtask's measured share
  // (averaged over its windows there) is better than any combination
  private final List<SubtaskShares> observations;

  /** Shares known group by group (summing to 1): no uncertainty left. */
  public KeyGroupLoad(double[] shares, List<Integer> observedAt) {
    this(
        shares.length,
        identity(shares.length),
        shares.clone(),
        List.copyOf(observedAt),
        0,
        List.of());
  }

  // Takes ownership of the arrays.
  private KeyGroupLoad(
      int maxParallelism,
      int[] cellStarts,
      double[] perGroup,
      List<Integer> observedAt,
      double groupVariation,
      List<SubtaskShares> observations) {
    this.maxParallelism = maxParallelism;
    this.cellStarts = cellStarts;
    this.perGroup = perGroup;
    this.observedAt = observedAt;
    this.groupVariation = groupVariation;
    this.observations = observations;
    this.cumulative = new double[cellStarts.length + 1];
    double largest = 0;
    for (int c = 0; c < cellStarts.length; c++) {
      cumulative[c + 1] = cumulative[c] + perGroup[c] * cellSize(c);
      largest = Math.max(largest, perGroup[c]);
    }
    this.largestShare = largest;
  }

  /** Even shares: what DS2 assumes, and all that is known before the first rescale. */
  public static KeyGroupLoad even(int maxParallelism) {
    return new KeyGroupLoad(
        maxParallelism,
        new int[] {0},
        new double[] {1.0 / maxParallelism},
        List.of(),
        0,
        List.of());
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
    List<Integer> at = new ArrayList<>(observations.size());
    boolean onlyAtOne = true;
    for (SubtaskShares o : observations) {
      at.add(o.parallelism());
      onlyAtOne &= o.parallelism() == 1;
    }
    if (onlyAtOne) { // assumed even, nothing to be uncertain about yet
      KeyGroupLoad even = even(maxParallelism);
      return new KeyGroupLoad(
          maxParallelism, even.cellStarts, even.perGroup, List.copyOf(at), 0, List.of());
    }
    if (observations.size() == 1) {
      return measured(observations.get(0), List.copyOf(at), List.copyOf(observations));
    }
    int[] starts = ProportionalFit.cellStarts(maxParallelism, observations);
    double[] x = ProportionalFit.perGroup(maxParallelism, starts, observations);
    return new KeyGroupLoad(
        maxParallelism,
        starts,
        x,
        List.copyOf(at),
        variation(observations),
        List.copyOf(observations));
  }

  /**
   * One observation alone: its ranges are the cells, each holding its observed share evenly. What
   * fitting would give, without the fitting: most keyed vertices run at one parallelism for many
   * windows, and each window combines again.
   */
  private static KeyGroupLoad measured(
      SubtaskShares o, List<Integer> at, List<SubtaskShares> observations) {
    int m = o.maxParallelism();
    int p = o.parallelism();
    int[] starts = new int[p];
    double[] perGroup = new double[p];
    double total = 0;
    for (int i = 0; i < p; i++) {
      total += o.shares()[i];
    }
    for (int i = 0; i < p; i++) { // p <= m: every subtask owns one key group or more
      starts[i] = KeyGroups.first(i, m, p);
    }
    for (int i = 0; i < p; i++) {
      perGroup[i] = o.shares()[i] / total / ((i + 1 < p ? starts[i + 1] : m) - starts[i]);
    }
    return new KeyGroupLoad(m, starts, perGroup, at, variation(o, starts), observations);
  }

  /**
   * How much single key groups differ, from the observation at the highest parallelism: if groups
   * vary independently, ranges of n groups vary sqrt(n) times less than single groups.
   */
  private static double variation(List<SubtaskShares> observations) {
    SubtaskShares o = observations.get(0);
    for (SubtaskShares other : observations) {
      o = other.parallelism() > o.parallelism() ? other : o;
    }
    int[] starts = new int[o.parallelism()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = KeyGroups.first(i, o.maxParallelism(), o.parallelism());
    }
    return variation(o, starts);
  }

  /** As above for observation {@code o}, whose subtasks' first key groups are {@code starts}. */
  private static double variation(SubtaskShares o, int[] starts) {
    int p = o.parallelism();
    int m = o.maxParallelism();
    if (p < 2) {
      return 0;
    }
    double mean = 0;
    for (int i = 0; i < p; i++) {
      mean += perGroupShare(o, starts, i) / p;
    }
    double var = 0;
    for (int i = 0; i < p; i++) {
      double d = perGroupShare(o, starts, i) - mean;
      var += d * d / (p - 1);
    }
    return mean > 0 ? Math.min(1, Math.sqrt(var) / mean * Math.sqrt((double) m / p)) : 0;
  }

  private static double perGroupShare(SubtaskShares o, int[] starts, int i) {
    int end = i + 1 < starts.length ? starts[i + 1] : o.maxParallelism();
    return o.shares()[i] / (end - starts[i]);
  }

  private int cellSize(int c) {
    return (c + 1 < cellStarts.length ? cellStarts[c + 1] : maxParallelism) - cellStarts[c];
  }

  /** The observation made at parallelism {@code p}, if the vertex ran at it. */
  public Optional<SubtaskShares> measuredAt(int p) {
    for (int i = 0; i < observations.size(); i++) { // by index: asked per candidate parallelism
      SubtaskShares o = observations.get(i);
      if (o.parallelism() == p) {
        return Optional.of(o);
      }
    }
    return Optional.empty();
  }

  public int maxParallelism() {
    return maxParallelism;
  }

  /** Per key group, summing to 1 (a fresh array). */
  public double[] shares() {
    double[] shares = new double[maxParallelism];
    for (int c = 0; c < cellStarts.length; c++) {
      Arrays.fill(shares, cellStarts[c], cellStarts[c] + cellSize(c), perGroup[c]);
    }
    return shares;
  }

  /** The share of key groups {@code from..to} (inclusive). */
  public double shareOf(int from, int to) {
    int a = ProportionalFit.cellIndex(cellStarts, from);
    int b = ProportionalFit.cellIndex(cellStarts, to);
    if (a == b) {
      return perGroup[a] * (to - from + 1);
    }
    return perGroup[a] * (cellStarts[a + 1] - from)
        + cumulative[b]
        - cumulative[a + 1]
        + perGroup[b] * (to - cellStarts[b] + 1);
  }

  /** The share of the most loaded key group. */
  public double largestShare() {
    return largestShare;
  }

  /** The share of one key group. */
  public double share(int keyGroup) {
    return perGroup[ProportionalFit.cellIndex(cellStarts, keyGroup)];
  }

  /** The first key group of the cell {@code keyGroup} lies in. */
  int cellStart(int keyGroup) {
    return cellStarts[ProportionalFit.cellIndex(cellStarts, keyGroup)];
  }

  /** The last key group of the cell {@code keyGroup} lies in. */
  int cellEnd(int keyGroup) {
    int c = ProportionalFit.cellIndex(cellStarts, keyGroup);
    return cellStarts[c] + cellSize(c) - 1;
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
    int p = o.parallelism();
    double worst = 0;
    for (int i = 0; i < p; i++) {
      double held =
          shareOf(KeyGroups.first(i, maxParallelism, p), KeyGroups.last(i, maxParallelism, p));
      worst = Math.max(worst, Math.abs(held - o.shares()[i]) * p);
    }
    return worst;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyGroupLoad k
        && maxParallelism == k.maxParallelism
        && observedAt.equals(k.observedAt)
        && groupVariation == k.groupVariation
        && Arrays.equals(cellStarts, k.cellStarts)
        && Arrays.equals(perGroup, k.perGroup);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(perGroup) + observedAt.hashCode();
  }

  @Override
  public String toString() {
    return "KeyGroupLoad["
        + maxParallelism
        + " key groups in "
        + cellStarts.length
        + " cells, observed at p="
        + observedAt
        + "]";
  }
}
