package io.ds2.core.estimate;

import io.ds2.core.keyed.KeyGroupLoad;
import io.ds2.core.keyed.KeyedSizing.HotKeyGroup;
import java.util.List;

/**
 * How a vertex's input spreads over its subtasks, and what that did to its parallelism: for a
 * vertex with a keyed (HASH) input.
 *
 * @param load the estimated spread over key groups
 * @param ds2Parallelism DS2's bound (input spread evenly over the subtasks), after min/max bounds
 * @param parallelism the smallest parallelism from the bound up at which the busiest subtask keeps
 *     up (or the upper bound if none does)
 * @param feasible whether the busiest subtask keeps up at {@code parallelism}
 * @param busiestSubtask the busiest subtask at {@code parallelism}
 * @param busiestShare its predicted share of the vertex's input
 * @param firstKeyGroup first key group of its range
 * @param lastKeyGroup last key group of its range (inclusive)
 * @param atDs2 the busiest subtask at {@code ds2Parallelism}: what DS2's answer would leave
 * @param hot key groups hotter than one instance, hottest first (loads in records/s)
 */
public record KeySpread(
    KeyGroupLoad load,
    int ds2Parallelism,
    int parallelism,
    boolean feasible,
    int busiestSubtask,
    double busiestShare,
    int firstKeyGroup,
    int lastKeyGroup,
    Busiest atDs2,
    List<HotKeyGroup> hot) {
  public KeySpread {
    hot = List.copyOf(hot);
  }

  /**
   * The busiest subtask at some parallelism.
   *
   * @param instances its predicted load in instances' capacity (above 1: it cannot keep up)
   */
  public record Busiest(int subtask, int firstKeyGroup, int lastKeyGroup, double instances) {}

  public int maxParallelism() {
    return load.maxParallelism();
  }

  /** The busiest subtask's share over an even share: 1 when the input spreads evenly. */
  public double busiestOverEven() {
    return busiestShare * parallelism;
  }
}
