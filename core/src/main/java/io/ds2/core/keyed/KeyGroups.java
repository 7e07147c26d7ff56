package io.ds2.core.keyed;

/**
 * Flink's assignment of key groups to the subtasks of a keyed vertex ({@code
 * KeyGroupRangeAssignment}): with max parallelism M and parallelism p, key group g goes to subtask
 * {@code g * p / M}, so subtask i owns the contiguous range {@code [(i*M + p - 1) / p, ((i+1)*M -
 * 1) / p]}. When p does not divide M, subtasks own floor(M/p) or ceil(M/p) groups.
 */
public final class KeyGroups {
  private KeyGroups() {}

  /** The subtask that owns {@code keyGroup}. */
  public static int subtaskOf(int keyGroup, int maxParallelism, int parallelism) {
    check(maxParallelism, parallelism);
    return (int) ((long) keyGroup * parallelism / maxParallelism);
  }

  /** The first key group subtask {@code i} owns. */
  public static int first(int i, int maxParallelism, int parallelism) {
    check(maxParallelism, parallelism);
    return (int) (((long) i * maxParallelism + parallelism - 1) / parallelism);
  }

  /** The last key group subtask {@code i} owns (inclusive). */
  public static int last(int i, int maxParallelism, int parallelism) {
    check(maxParallelism, parallelism);
    return (int) (((long) (i + 1) * maxParallelism - 1) / parallelism);
  }

  private static void check(int maxParallelism, int parallelism) {
    if (parallelism < 1 || parallelism > maxParallelism) {
      throw new IllegalArgumentException(
          "parallelism " + parallelism + " outside [1, max parallelism " + maxParallelism + "]");
    }
  }
}
