package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.keyed.SubtaskShares;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyedHistoryAnnotationTest {
  private static SubtaskShares even(int p, double records) {
    double[] shares = new double[p];
    Arrays.fill(shares, 1.0 / p);
    return new SubtaskShares(128, shares, 0.01, records);
  }

  private static KeyedHistory restored(String text) {
    StateAnnotation.Read<KeyedHistory> read =
        KeyedHistoryAnnotation.read(Map.of(KeyedHistoryAnnotation.KEY, text)).orElseThrow();
    return read instanceof StateAnnotation.Restored<KeyedHistory> r
        ? r.value()
        : fail(read.toString());
  }

  @Test
  void everyObservationRoundTripsExactly() {
    SubtaskShares skewed = new SubtaskShares(128, new double[] {0.5, 0.3, 0.2}, 0.004, 3571);
    KeyedHistory h = new KeyedHistory(Map.of("v1", List.of(skewed, even(2, 900))));
    KeyedHistory back = restored(KeyedHistoryAnnotation.write(h));
    List<SubtaskShares> v1 = back.of("v1");
    assertEquals(2, v1.size());
    assertArrayEquals(skewed.shares(), v1.get(0).shares());
    assertEquals(0.004, v1.get(0).costPerRecord());
    assertEquals(3571, v1.get(0).records());
    assertEquals(128, v1.get(0).maxParallelism());
    assertEquals(2, v1.get(1).parallelism(), "newest first, as kept");
    assertTrue(KeyedHistoryAnnotation.read(Map.of()).isEmpty(), "absent: nothing to restore");
  }

  @Test
  void aSourcesSplitOwnersRoundTrip() {
    // 4 splits at 6 subtasks (two read nothing): a count learned from idle subtasks survives.
    SubtaskShares source =
        SubtaskShares.ofSplits(
            new int[] {0, 1, 2, 3}, new double[] {0.25, 0.25, 0.25, 0.25, 0, 0}, 0.01, 1200);
    KeyedHistory back =
        restored(KeyedHistoryAnnotation.write(new KeyedHistory(Map.of("s", List.of(source)))));
    assertEquals(source, back.of("s").get(0));
    assertArrayEquals(new int[] {0, 1, 2, 3}, back.of("s").get(0).owners().orElseThrow());
  }

  @Test
  void tooLargeAHistoryDropsOldestObservationsFirst() {
    List<SubtaskShares> many = new ArrayList<>();
    for (int p = 128; p > 124; p--) {
      many.add(even(p, 1000));
    }
    Map<String, List<SubtaskShares>> byVertex = new java.util.HashMap<>();
    for (int v = 0; v < 40; v++) {
      byVertex.put("v" + v, many);
    }
    String text = KeyedHistoryAnnotation.write(new KeyedHistory(byVertex));
    assertTrue(text.length() <= KeyedHistoryAnnotation.MAX_CHARS, text.length() + " chars");
    List<SubtaskShares> kept = restored(text).of("v0");
    assertTrue(!kept.isEmpty() && kept.size() < 4, kept.size() + " kept");
    assertEquals(128, kept.get(0).parallelism(), "the newest is kept");
  }

  @Test
  void whatDs2DidNotWriteIsReportedNotUsed() {
    for (String bad :
        List.of(
            "{oops",
            "[1,2]",
            "{\"v1\":3}",
            "{\"v1\":[{\"maxParallelism\":2,\"costPerRecord\":0.01,\"records\":5,"
                + "\"shares\":[0.2,0.2,0.6]}]}",
            "{\"v1\":[{\"maxParallelism\":128,\"costPerRecord\":0.01,\"records\":5,"
                + "\"shares\":[0.5,0.6]}]}",
            "{\"v1\":[{\"maxParallelism\":128,\"costPerRecord\":-1,\"records\":5,"
                + "\"shares\":[0.5,0.5]}]}")) {
      StateAnnotation.Read<KeyedHistory> read =
          KeyedHistoryAnnotation.read(Map.of(KeyedHistoryAnnotation.KEY, bad)).orElseThrow();
      String why = assertInstanceOf(StateAnnotation.Unreadable.class, read, bad).why();
      assertTrue(why.startsWith("annotation ds2.io/keyed-history is unreadable ("), why);
      assertTrue(why.endsWith("keyed vertices start again from what the next window shows"), why);
    }
  }
}
