package io.ds2.core.keyed;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntToDoubleFunction;

/**
 * The smallest parallelism at which the busiest subtask of a keyed vertex keeps up, under Flink's
 * key-group assignment and an estimated spread of the input over key groups. DS2's equation gives a
 * lower bound (the input spread evenly); from it upward each candidate is checked by summing the
 * load of every subtask's key-group range (sums per cell: O(p log cells) per candidate, whatever
 * the max parallelism; a scan of the key groups only when one may be hot). Feasibility is not
 * monotonic in p (ranges shift), so candidates are tried in order, never bisected.
 *
 * <p>A subtask keeps up if its predicted load plus one standard deviation of what is not known (the
 * parts of cells it takes, {@link KeyGroupLoad}) is within capacity: a candidate that cuts through
 * what was only seen as a whole is trusted less than one made of whole observed ranges.
 *
 * <p>A key group hotter than one instance cannot be fixed by parallelism: it is reported, and the
 * vertex is sized so that every subtask not holding one keeps up, instead of climbing towards max
 * parallelism for it.
 */
public final class KeyedSizing {
  private KeyedSizing() {}

  /** A key group whose load alone exceeds one instance's capacity. */
  public record HotKeyGroup(int keyGroup, double load) {}

  /**
   * @param parallelism the chosen parallelism
   * @param feasible whether every subtask (not holding a hot key group) keeps up at it; false if
   *     none up to the upper bound does
   * @param busiestSubtask the busiest such subtask at the chosen parallelism
   * @param busiestLoad its predicted input, records/s
   * @param busiestFirstKeyGroup first key group of its range
   * @param busiestLastKeyGroup last key group of its range (inclusive)
   * @param hot key groups hotter than one instance, hottest first
   */
  public record Result(
      int parallelism,
      boolean feasible,
      int busiestSubtask,
      double busiestLoad,
      int busiestFirstKeyGroup,
      int busiestLastKeyGroup,
      List<HotKeyGroup> hot)
      implements Candidate {
    public Result {
      hot = List.copyOf(hot);
    }

    /** The busiest subtask's load over an even share of the vertex's input. */
    public double busiestOverEven(double input) {
      return input > 0 ? busiestLoad / (input / parallelism) : 1;
    }
  }

  /**
   * @param input records/s the vertex must take in (in*)
   * @param capacity records/s one instance may take at the target utilization
   * @param lowerBound the first candidate (DS2's bound, at least 1)
   * @param upperBound the last candidate (at most the vertex's max parallelism)
   */
  public static Result size(
      KeyGroupLoad load, double input, double capacity, int lowerBound, int upperBound) {
    return size(load, input, p -> capacity, lowerBound, upperBound);
  }

  /**
   * @param capacityAt records/s one instance may take at the target utilization when the vertex
   *     runs at the given parallelism (a learned cost curve makes it fall with p)
   */
  public static Result size(
      KeyGroupLoad load,
      double input,
      IntToDoubleFunction capacityAt,
      int lowerBound,
      int upperBound) {
    int m = load.maxParallelism();
    int from = Math.max(1, Math.min(lowerBound, m));
    int to = Math.max(from, Math.min(upperBound, m));
    // A key group is hot if it overloads one instance even at the best capacity considered.
    double capacity = Math.max(capacityAt.applyAsDouble(from), capacityAt.applyAsDouble(to));
    List<HotKeyGroup> hot = new ArrayList<>();
    int[] hotPrefix = null; // hot key groups in [0, g): only set up when there is one
    if (load.largestShare() * input > capacity) {
      hotPrefix = new int[m + 1];
      for (int g = 0; g < m; g++) {
        double l = load.share(g) * input;
        hotPrefix[g + 1] = hotPrefix[g] + (l > capacity ? 1 : 0);
        if (l > capacity) {
          hot.add(new HotKeyGroup(g, l));
        }
      }
      hot.sort((x, y) -> Double.compare(y.load(), x.load()));
    }
    int[] hotKeyGroups = hotPrefix;
    return firstKeepingUp(
        from, to, p -> busiest(p, load, input, hotKeyGroups, capacityAt.applyAsDouble(p), hot));
  }

  /** A parallelism tried: whether its busiest subtask keeps up there. */
  public interface Candidate {
    boolean feasible();
  }

  /**
   * The first of {@code from..to} at which the busiest subtask keeps up, else the last one tried.
   * Feasibility is not monotonic in p (key-group ranges shift; a source's subtasks own ceil or
   * floor of its splits), so candidates are tried in order, never bisected: the one search for key
   * groups and for a source's splits ({@link SplitLoad}).
   */
  public static <C extends Candidate> C firstKeepingUp(int from, int to, IntFunction<C> at) {
    C last = null;
    for (int p = from; p <= to; p++) {
      last = at.apply(p);
      if (last.feasible()) {
        return last;
      }
    }
    return last;
  }

  private static Result busiest(
      int p,
      KeyGroupLoad load,
      double input,
      int[] hotPrefix,
      double capacity,
      List<HotKeyGroup> hot) {
    int m = load.maxParallelism();
    SubtaskShares measured = load.measuredAt(p).orElse(null);
    int worst = -1;
    double worstLoad = -1;
    double worstBound = -1;
    for (int i = 0; i < p; i++) {
      int a = KeyGroups.first(i, m, p);
      int b = KeyGroups.last(i, m, p);
      if (hotPrefix != null && hotPrefix[b + 1] - hotPrefix[a] > 0) {
        continue; // overloaded by its hot key group whatever p is: reported, not sized for
      }
      double l;
      double bound;
      if (measured != null) { // it ran at p: what its subtasks needed there is known
        l = measured.shares()[i] * input;
        bound = l;
      } else {
        l = load.shareOf(a, b) * input;
        bound = l + Math.sqrt(unknown(load, input, a, b));
      }
      if (bound > worstBound) {
        worstBound = bound;
        worstLoad = l;
        worst = i;
      }
    }
    if (worst < 0) {
      return new Result(p, true, 0, 0, 0, 0, hot); // every subtask holds a hot key group
    }
    return new Result(
        p,
        worstBound <= capacity * (1 + 1e-9), // sums of equal shares round
        worst,
        worstLoad,
        KeyGroups.first(worst, m, p),
        KeyGroups.last(worst, m, p),
        hot);
  }

  /**
   * Variance of the load of key groups [a, b] from the cells it takes only part of (only its two
   * ends can cut one): k of a cell's n groups, drawn from groups varying by the load's variation.
   */
  private static double unknown(KeyGroupLoad load, double input, int a, int b) {
    double v = load.groupVariation();
    if (v == 0) {
      return 0;
    }
    double var = partial(load, load.cellStart(a), input, a, b, v);
    if (load.cellStart(b) != load.cellStart(a)) {
      var += partial(load, load.cellStart(b), input, a, b, v);
    }
    return var;
  }

  private static double partial(
      KeyGroupLoad load, int cellStart, double input, int a, int b, double v) {
    int cellEnd = load.cellEnd(cellStart);
    int n = cellEnd - cellStart + 1;
    int k = Math.min(b, cellEnd) - Math.max(a, cellStart) + 1;
    if (k >= n || n < 2) {
      return 0;
    }
    double sd = v * load.shareOf(cellStart, cellEnd) * input / n;
    return (double) k * (n - k) / (n - 1) * sd * sd;
  }
}
