package io.ds2.core.split;

import java.util.List;

/**
 * How a source's enumerator hands its splits to the subtasks at a parallelism: what a rescale from
 * a checkpoint does (the readers give their splits back and the enumerator assigns them again at
 * the new parallelism).
 */
public sealed interface SplitAssignment
    permits KafkaAssignment, SplitAssignment.RoundRobin, SplitAssignment.FromState {
  /** The splits, in the order {@link #ownerOf} numbers them. */
  List<Split> splits();

  /** The subtask of {@code parallelism} that reads split number {@code split}. */
  int ownerOf(int split, int parallelism);

  /** Each split's subtask at {@code parallelism}. */
  default int[] ownersAt(int parallelism) {
    int[] owners = new int[splits().size()];
    for (int s = 0; s < owners.length; s++) {
      owners[s] = ownerOf(s, parallelism);
    }
    return owners;
  }

  /** What the assignment rests on, for a decision's reasons. */
  String describe();

  /**
   * A rescale from a checkpoint or savepoint: the readers' splits come back from their own state,
   * which Flink redistributes in near-equal contiguous shares of the old subtasks' lists (list
   * state, {@code SPLIT_DISTRIBUTE}); the enumerator assigns nothing. Each subtask reads ceil or
   * floor of n / p splits, but which ones follows the old subtasks' state and the order each reader
   * keeps its splits in: {@link #ownerOf} deals them out in turn, and sizing takes the worst
   * grouping with these counts (the largest splits together).
   */
  record FromState(List<Split> splits) implements SplitAssignment {
    public FromState {
      splits = List.copyOf(splits);
      if (splits.isEmpty()) {
        throw new IllegalArgumentException("a source has at least one split");
      }
    }

    @Override
    public int ownerOf(int split, int parallelism) {
      return split % parallelism;
    }

    @Override
    public String describe() {
      return splits.size() + " splits, handed back from state in near-equal shares";
    }
  }

  /**
   * Splits only counted (a FLIP-27 source without split metrics): dealt out in turn, split {@code
   * s} to subtask {@code s mod p}, so the busiest subtask reads ceil(n / p) of n. Kafka's rule for
   * one topic and most enumerators that assign at start give the same counts.
   */
  record RoundRobin(int count) implements SplitAssignment {
    public RoundRobin {
      if (count < 1) {
        throw new IllegalArgumentException("a source has at least one split, not " + count);
      }
    }

    @Override
    public List<Split> splits() {
      return java.util.stream.IntStream.range(0, count).mapToObj(Split::numbered).toList();
    }

    @Override
    public int ownerOf(int split, int parallelism) {
      return split % parallelism;
    }

    @Override
    public String describe() {
      return count + " splits dealt out in turn";
    }
  }
}
