package io.ds2.core.split;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kafka's rule applied to topic names as Flink's metrics report them ({@code .} written as {@code
 * _}), and which subtask reads which split from the names in the metrics; the rule itself is
 * checked against the connector's class in the controller's tests.
 */
class KafkaAssignmentTest {
  /** Twelve partitions at 5: three subtasks read 3 and two read 2, busiest 3/12, not 1/5. */
  @Test
  void twelvePartitionsAtFiveAreThreeThreeThreeTwoTwo() {
    int[] count = new int[5];
    for (int n = 0; n < 12; n++) {
      count[KafkaAssignment.owner("words", n, 5)]++;
    }
    int[] sorted = count.clone();
    java.util.Arrays.sort(sorted);
    assertEquals("[2, 2, 2, 3, 3]", java.util.Arrays.toString(sorted));
  }

  /** A topic {@code orders.v1} reads {@code orders_v1} in the metrics: both names are tried. */
  @Test
  void aDotWrittenAsUnderscoreIsTriedBothWays() {
    List<Split> splits = new ArrayList<>();
    for (int n = 0; n < 8; n++) {
      splits.add(new Split("orders_v1", n));
    }
    List<KafkaAssignment> all = KafkaAssignment.forEveryReading(splits);
    assertEquals(
        List.of(Map.of("orders_v1", "orders_v1"), Map.of("orders_v1", "orders.v1")),
        all.stream().map(KafkaAssignment::topics).toList());
    assertEquals(1, KafkaAssignment.forEveryReading(List.of(new Split("words", 0))).size());
  }

  /**
   * After a rescale from 1 to 4 (measured on a real broker), Flink's metric store still names all
   * four partitions under subtask 0 from the run before; subtasks 1-3 name one each. Every subtask
   * reads, so each of 1-3 reads its one, and subtask 0 the one left.
   */
  @Test
  void staleNamesOfAnEarlierRunAreStruckByWhatTheOtherSubtasksRead() {
    Split p0 = new Split("t", 0);
    Split p1 = new Split("t", 1);
    Split p2 = new Split("t", 2);
    Split p3 = new Split("t", 3);
    SplitOwnership listed =
        new SplitOwnership(List.of(List.of(p0, p1, p2, p3), List.of(p0), List.of(p1), List.of(p2)));
    assertTrue(listed.complete());
    boolean[] reading = {true, true, true, true};
    assertArrayEquals(new int[] {1, 2, 3, 0}, listed.resolve(reading).orElseThrow());
    // Where a reader of a named split cannot be told, nothing is claimed.
    SplitOwnership open = new SplitOwnership(List.of(List.of(p0, p1), List.of(p0, p1)));
    assertTrue(open.resolve(new boolean[] {true, true}).isEmpty());
  }

  @Test
  void aListingWithAGapIsNotComplete() {
    SplitOwnership whole =
        new SplitOwnership(List.of(List.of(new Split("t", 0)), List.of(new Split("t", 1))));
    SplitOwnership gap =
        new SplitOwnership(List.of(List.of(new Split("t", 0)), List.of(new Split("t", 2))));
    assertTrue(whole.complete());
    assertTrue(!gap.complete());
  }
}
