package io.ds2.core.keyed;

import io.ds2.core.split.SplitAssignment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a source's input spreads over its splits, as shares summing to 1: a source subtask's load is
 * the load of the splits it reads, as a keyed subtask's is that of its key groups.
 *
 * <p>Each observation says how much of the demand the splits of each subtask needed (a saturated
 * subtask's share corrected as for key groups, {@link SubtaskShares}); one window cannot tell the
 * splits of one subtask apart. Observations at other parallelisms group the splits differently, so
 * they are combined by iterative proportional fitting, as key groups are ({@link KeyGroupLoad}):
 * from even shares, each subtask's splits are scaled in turn to the share they were observed to
 * need, newest last, until all fit. A partition skewed by a keyed producer shows once the source
 * has run at two parallelisms; before that, the splits of a subtask count as even. An immutable
 * value.
 */
public final class SplitLoad {
  private static final int MAX_ITERATIONS = 200;
  private static final double CONVERGED = 1e-9;

  /** A split counts as hot only this far above an even share (a skewed partition). */
  static final double HOT_OVER_EVEN = 1.1;

  private final double[] shares;
  private final List<Integer> observedAt;

  private SplitLoad(double[] shares, List<Integer> observedAt) {
    this.shares = shares;
    this.observedAt = List.copyOf(observedAt);
  }

  /** Every split alike: all that is known before the source ran at a parallelism above 1. */
  public static SplitLoad even(int splits) {
    double[] x = new double[splits];
    Arrays.fill(x, 1.0 / splits);
    return new SplitLoad(x, List.of());
  }

  /**
   * The spread that fits every observation (newest first, each with the subtask of every split):
   * where they contradict each other the newest wins (it is fitted last).
   */
  public static SplitLoad combine(int splits, List<SubtaskShares> observations) {
    double[] x = new double[splits];
    Arrays.fill(x, 1.0 / splits);
    List<Integer> at = new ArrayList<>();
    for (SubtaskShares o : observations) {
      at.add(o.parallelism());
    }
    for (int round = 0; round < MAX_ITERATIONS; round++) {
      for (int k = observations.size() - 1; k >= 0; k--) {
        fit(x, observations.get(k));
      }
      if (observations.size() <= 1 || converged(x, observations)) {
        break;
      }
    }
    double total = 0;
    for (double v : x) {
      total += v;
    }
    for (int s = 0; s < splits; s++) {
      x[s] = total > 0 ? x[s] / total : 1.0 / splits;
    }
    return new SplitLoad(x, at);
  }

  private static void fit(double[] x, SubtaskShares o) {
    int[] owners = o.owners().orElseThrow();
    double[] held = new double[o.parallelism()];
    int[] count = new int[o.parallelism()];
    for (int s = 0; s < x.length; s++) {
      if (owners[s] >= 0 && owners[s] < held.length) {
        held[owners[s]] += x[s];
        count[owners[s]]++;
      }
    }
    for (int s = 0; s < x.length; s++) {
      int i = owners[s];
      if (i < 0 || i >= held.length) {
        continue;
      }
      double want = o.shares()[i];
      x[s] = held[i] > 0 ? x[s] * want / held[i] : want / count[i];
    }
  }

  private static boolean converged(double[] x, List<SubtaskShares> observations) {
    for (SubtaskShares o : observations) {
      if (misfit(x, o) >= CONVERGED) {
        return false;
      }
    }
    return true;
  }

  private static double misfit(double[] x, SubtaskShares o) {
    int[] owners = o.owners().orElseThrow();
    double[] held = new double[o.parallelism()];
    for (int s = 0; s < x.length; s++) {
      if (owners[s] >= 0 && owners[s] < held.length) {
        held[owners[s]] += x[s];
      }
    }
    double worst = 0;
    for (int i = 0; i < held.length; i++) {
      worst = Math.max(worst, Math.abs(held[i] - o.shares()[i]) * held.length);
    }
    return worst;
  }

  /**
   * How far these shares are from an observation: the largest difference between a subtask's
   * observed share and what its splits hold here, relative to an even share.
   */
  public double misfit(SubtaskShares o) {
    return misfit(shares, o);
  }

  public int splits() {
    return shares.length;
  }

  /** The share of split {@code s}. */
  public double share(int s) {
    return shares[s];
  }

  /** Per split, summing to 1 (a fresh array). */
  public double[] shares() {
    return shares.clone();
  }

  /** The parallelisms the shares were measured at, newest first. */
  public List<Integer> observedAt() {
    return observedAt;
  }

  /** True when the source never ran at a parallelism above 1: every split is assumed alike. */
  public boolean assumedEven() {
    for (int p : observedAt) {
      if (p != 1) {
        return false;
      }
    }
    return true;
  }

  /** A split whose load alone exceeds one instance's capacity: no parallelism fixes it. */
  public record HotSplit(int split, double load) {}

  /**
   * A parallelism tried for a source.
   *
   * @param busiestSubtask the subtask with the most load (not holding a hot split)
   * @param busiestLoad its load, records/s
   * @param busiestSplits how many splits it reads
   * @param hot splits hotter than one instance, hottest first
   */
  public record Result(
      int parallelism,
      boolean feasible,
      int busiestSubtask,
      double busiestLoad,
      int busiestSplits,
      List<HotSplit> hot)
      implements KeyedSizing.Candidate {
    public Result {
      hot = List.copyOf(hot);
    }
  }

  /**
   * The smallest parallelism from {@code from} to {@code to} at which the busiest subtask keeps up,
   * under every assignment in {@code alternatives} (several where the connector's rule cannot be
   * pinned down; the worst counts), or {@code to} if none does. The same search as key groups'
   * ({@link KeyedSizing#firstKeepingUp}).
   *
   * @param input records/s the source must read
   * @param capacity records/s one subtask may read at the target utilization
   */
  public Result size(
      List<SplitAssignment> alternatives, double input, double capacity, int from, int to) {
    // Hot: over one instance and above an even share. Where every split alone is over an instance
    // (too few splits for the load), no split is hotter than the others: that is the split count's
    // limit, and sizing climbs to it.
    List<HotSplit> hot = new ArrayList<>();
    double evenShare = 1.0 / shares.length;
    for (int s = 0; s < shares.length; s++) {
      if (shares[s] * input > capacity * (1 + 1e-9) && shares[s] > HOT_OVER_EVEN * evenShare) {
        hot.add(new HotSplit(s, shares[s] * input));
      }
    }
    hot.sort((a, b) -> Double.compare(b.load(), a.load()));
    int lo = Math.max(1, from);
    return KeyedSizing.firstKeepingUp(
        lo, Math.max(lo, to), p -> at(p, alternatives, input, capacity, hot));
  }

  /**
   * The busiest subtask at {@code p} under the worst of {@code alternatives} (for {@link
   * SplitAssignment.FromState}, the subtask number is not known: 0).
   */
  public Result at(
      int p,
      List<SplitAssignment> alternatives,
      double input,
      double capacity,
      List<HotSplit> hot) {
    Result worst = null;
    for (SplitAssignment a : alternatives) {
      Result r =
          a instanceof SplitAssignment.FromState
              ? largestTogether(p, input, capacity, hot)
              : byOwner(a, p, input, capacity, hot);
      if (worst == null || r.busiestLoad() > worst.busiestLoad()) {
        worst = r;
      }
    }
    return worst;
  }

  /**
   * Splits handed back from state in near-equal shares: some subtask reads ceil(n / p) of them, and
   * which ones is not known, so the largest (hot ones aside) are taken together.
   */
  private Result largestTogether(int p, double input, double capacity, List<HotSplit> hot) {
    double[] sorted = new double[shares.length - hot.size()];
    int n = 0;
    for (int s = 0; s < shares.length; s++) {
      final int split = s;
      if (hot.stream().noneMatch(h -> h.split() == split)) {
        sorted[n++] = shares[s];
      }
    }
    Arrays.sort(sorted);
    int k = (int) Math.min(n, Math.ceil((double) shares.length / p));
    double load = 0;
    for (int i = 0; i < k; i++) {
      load += sorted[n - 1 - i] * input;
    }
    return new Result(p, load <= capacity * (1 + 1e-9), 0, load, k, hot);
  }

  private Result byOwner(
      SplitAssignment a, int p, double input, double capacity, List<HotSplit> hot) {
    double[] load = new double[p];
    int[] count = new int[p];
    boolean[] holdsHot = new boolean[p];
    for (int s = 0; s < shares.length; s++) {
      int i = a.ownerOf(s, p);
      load[i] += shares[s] * input;
      count[i]++;
    }
    for (HotSplit h : hot) {
      holdsHot[a.ownerOf(h.split(), p)] = true;
    }
    int busiest = -1;
    for (int i = 0; i < p; i++) {
      if (!holdsHot[i] && (busiest < 0 || load[i] > load[busiest])) {
        busiest = i;
      }
    }
    return busiest < 0
        ? new Result(p, true, 0, 0, 0, hot) // every subtask holds a hot split
        : new Result(
            p, load[busiest] <= capacity * (1 + 1e-9), busiest, load[busiest], count[busiest], hot);
  }

  @Override
  public String toString() {
    return "SplitLoad" + Arrays.toString(shares) + " observed at p=" + observedAt;
  }
}
