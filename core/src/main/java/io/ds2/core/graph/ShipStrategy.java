package io.ds2.core.graph;

import java.util.Locale;

/**
 * How records travel over an edge, as Flink's job plan names it ({@code ship_strategy}). It decides
 * how a vertex's input spreads over its subtasks: by key group (HASH), pointwise from the
 * producer's subtasks (FORWARD, RESCALE: see {@code io.ds2.core.keyed.Pointwise}), or evenly (the
 * rest).
 */
public enum ShipStrategy {
  /** Partitioned by key group: subtask i gets the keys of its contiguous key-group range. */
  HASH,
  /**
   * Pointwise: at equal parallelism subtask i reads producer subtask i; at another, ranges of
   * producers (Flink rebalances within them).
   */
  FORWARD,
  /** Round-robin over every downstream subtask: even. */
  REBALANCE,
  /** Pointwise, round-robin over each producer's local group of consumer subtasks. */
  RESCALE,
  /** Every record to every subtask: each takes the whole input. */
  BROADCAST,
  /** Everything to subtask 0. */
  GLOBAL,
  /** A user's partitioner, or a name this version does not know: treated as even. */
  OTHER;

  /** The strategy of a plan's {@code ship_strategy} text; unknown names are {@link #OTHER}. */
  public static ShipStrategy of(String planName) {
    if (planName == null) {
      return OTHER;
    }
    // Plans name them in upper case; every estimate asks for every edge, so that is tried first.
    ShipStrategy exact = exactly(planName);
    if (exact != OTHER) {
      return exact;
    }
    return exactly(planName.trim().toUpperCase(Locale.ROOT));
  }

  private static ShipStrategy exactly(String name) {
    return switch (name) {
      case "HASH" -> HASH;
      case "FORWARD" -> FORWARD;
      case "REBALANCE" -> REBALANCE;
      case "RESCALE" -> RESCALE;
      case "BROADCAST" -> BROADCAST;
      case "GLOBAL" -> GLOBAL;
      default -> OTHER;
    };
  }
}
