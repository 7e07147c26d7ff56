package io.ds2.model.split;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kafka's rule applied to topic names as Flink's metrics report them ({@code .} written as {@code
 * _}); the rule itself is checked against the connector's class in the controller's tests.
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

  /**
   * A topic {@code orders.v1} reads {@code orders_v1} in the metrics. Where its ownership at some
   * parallelism tells the two apart, the name that agrees with it is the one kept.
   */
  @Test
  void aDotWrittenAsUnderscoreIsResolvedByTheOwnershipSeen() {
    int p = 2;
    while (KafkaAssignment.owner("orders.v1", 0, p) == KafkaAssignment.owner("orders_v1", 0, p)) {
      p++;
    }
    List<Split> splits = new ArrayList<>();
    List<List<Split>> by = new ArrayList<>();
    for (int i = 0; i < p; i++) {
      by.add(new ArrayList<>());
    }
    for (int n = 0; n < 8; n++) {
      Split s = new Split("orders_v1", n);
      splits.add(s);
      by.get(KafkaAssignment.owner("orders.v1", n, p)).add(s);
    }
    List<KafkaAssignment> fit =
        KafkaAssignment.consistentWith(splits, List.of(new SplitOwnership(by)));
    assertEquals(1, fit.size(), fit.toString());
    assertEquals(Map.of("orders_v1", "orders.v1"), fit.get(0).topics());
    // Before any ownership at p > 1 tells them apart, both readings are kept (sizing takes the
    // worse).
    assertEquals(2, KafkaAssignment.consistentWith(splits, List.of()).size());
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
