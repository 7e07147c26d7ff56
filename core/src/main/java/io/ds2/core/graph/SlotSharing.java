package io.ds2.core.graph;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Task slots under slot sharing: a job holds, per slot-sharing group, as many slots as the group's
 * largest vertex parallelism, summed over its groups (with Flink's default, one group: its largest
 * vertex). Groups are named; the empty name is the default group, where a vertex whose group Flink
 * does not report (before 1.19) is taken to be.
 */
public final class SlotSharing {
  /** The name of Flink's default group, as these methods take it. */
  public static final String DEFAULT_GROUP = "";

  private SlotSharing() {}

  /** The group of {@code v}, {@link #DEFAULT_GROUP} where not reported. */
  public static String groupOf(Vertex v) {
    return v.slotSharingGroup().orElse(DEFAULT_GROUP);
  }

  /** Slots held by {@code vertices}, each in {@code group} at {@code parallelism}. */
  public static <T> int held(
      Iterable<T> vertices, Function<T, String> group, ToIntFunction<T> parallelism) {
    Map<String, Integer> largest = new HashMap<>();
    for (T v : vertices) {
      largest.merge(group.apply(v), parallelism.applyAsInt(v), Math::max);
    }
    return largest.values().stream().mapToInt(Integer::intValue).sum();
  }
}
