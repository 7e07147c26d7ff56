package io.ds2.core.estimate;

import java.util.List;

/**
 * How a source vertex's input spreads over its subtasks through the splits each reads, and what
 * that did to its parallelism.
 *
 * @param basis where the split count and assignment came from
 * @param splits how many splits the source reads (0 when unknown)
 * @param assignment the assignment's description (topics and partitions, or a count)
 * @param ds2Parallelism DS2's bound (input spread evenly over the subtasks), after min/max bounds
 * @param parallelism the smallest parallelism from the bound up, and never above the split count,
 *     at which the busiest subtask keeps up (the split count if none does)
 * @param feasible whether the busiest subtask keeps up at {@code parallelism}
 * @param busiestSubtask the busiest subtask at {@code parallelism} (0 where splits come back from
 *     state and which subtask reads which is not known beforehand)
 * @param busiestSplits how many splits it reads
 * @param busiestShare its predicted share of the source's input
 * @param observedAt the parallelisms the spread over splits was measured at, newest first
 * @param busiestAtCurrent instances the busiest subtask needs at the current parallelism, at the
 *     target utilization (hot splits aside: no parallelism helps them)
 */
public record SplitSpread(
    Basis basis,
    int splits,
    String assignment,
    int ds2Parallelism,
    int parallelism,
    boolean feasible,
    int busiestSubtask,
    int busiestSplits,
    double busiestShare,
    List<Integer> observedAt,
    double busiestAtCurrent) {
  public SplitSpread {
    observedAt = List.copyOf(observedAt);
  }

  /** Where a source's split count came from. */
  public enum Basis {
    /** The reader's per-split metrics name every split and its subtask (KafkaSource). */
    SPLIT_METRICS,
    /** Given by the user ({@code --source-splits}, annotation {@code ds2.io/source-splits}). */
    GIVEN,
    /** Subtasks that read nothing and stayed idle while their siblings were busy own no split. */
    LEARNED_FROM_IDLE_SUBTASKS,
    /** Not known: sized as if the input spread evenly, with no cap. */
    UNKNOWN
  }
}
