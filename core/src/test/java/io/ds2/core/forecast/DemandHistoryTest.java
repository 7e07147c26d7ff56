package io.ds2.core.forecast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DemandHistoryTest {
  private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
  private static final double NaN = Double.NaN;

  @Test
  void ratesAreAveragedPerBucketAndOnlyCompleteBucketsAreInTheSeries() {
    DemandHistory h = new DemandHistory(Duration.ofMinutes(1), 10);
    h.add("Orders", T0.plusSeconds(10), 100);
    h.add("Orders", T0.plusSeconds(40), 200);
    h.add("Orders", T0.plusSeconds(130), 50); // minute 2; minute 1 has nothing
    h.add("Orders", T0.plusSeconds(190), 70); // minute 3, still filling
    assertArrayEquals(new double[] {150, NaN, 50}, h.series("Orders", T0.plusSeconds(200)));
    assertArrayEquals(new double[0], h.series("Payments", T0.plusSeconds(200)));
  }

  @Test
  void aWindowCountsInEveryBucketItMeasuredByTheTimeItSpentThere() {
    DemandHistory h = new DemandHistory(Duration.ofMinutes(1), 10);
    // 30 s windows decided at 0:45, 1:15 and 1:45: a ramp from 100/s to 400/s at minute 1.
    h.add("Orders", T0.plusSeconds(15), T0.plusSeconds(45), 100);
    h.add("Orders", T0.plusSeconds(45), T0.plusSeconds(75), 250); // 15 s in minute 0, 15 s in 1
    h.add("Orders", T0.plusSeconds(75), T0.plusSeconds(105), 400);
    h.add("Orders", T0.plusSeconds(105), T0.plusSeconds(135), 400); // into minute 2, filling
    // Minute 0: 30 s at 100 and 15 s at 250; minute 1: 15 s at 250 and 45 s at 400. Counted at
    // the decisions' instants, minute 0 would hold 100 only and minute 1 250, 400 and 400.
    assertArrayEquals(
        new double[] {(30 * 100 + 15 * 250) / 45.0, (15 * 250 + 45 * 400) / 60.0},
        h.series("Orders", T0.plusSeconds(150)),
        1e-9);
  }

  @Test
  void itKeepsAFixedNumberOfBucketsWhateverTheUptime() {
    DemandHistory h = new DemandHistory(Duration.ofMinutes(1), 5);
    for (int m = 0; m < 1000; m++) {
      h.add("s", T0.plus(Duration.ofMinutes(m)), m);
    }
    assertArrayEquals(
        new double[] {995, 996, 997, 998, 999}, h.series("s", T0.plus(Duration.ofMinutes(1000))));
    // A long silence leaves only what falls within the last five buckets.
    h.add("s", T0.plus(Duration.ofMinutes(1003)), 7);
    assertArrayEquals(
        new double[] {999, NaN, NaN, NaN, 7}, h.series("s", T0.plus(Duration.ofMinutes(1004))));
  }

  @Test
  void whatIsNotAMeasurementIsNotLearnt() {
    DemandHistory h = new DemandHistory(Duration.ofMinutes(1), 5);
    h.add("s", T0, NaN);
    h.add("s", T0, -1);
    h.add("s", T0, Double.POSITIVE_INFINITY);
    assertEquals(0, h.series("s", T0.plusSeconds(60)).length);
  }

  @Test
  void aSavedCopyContinuesWhereItLeftOff() {
    DemandHistory h = new DemandHistory(Duration.ofMinutes(5), 4);
    h.add("s", T0, 10);
    h.add("s", T0.plus(Duration.ofMinutes(10)), 30);
    h.add("s", T0.plus(Duration.ofMinutes(15)), 40);
    DemandHistory next = new DemandHistory(Duration.ofMinutes(5), 4);
    next.restore(h.save());
    Instant now = T0.plus(Duration.ofMinutes(20));
    assertArrayEquals(h.series("s", now), next.series("s", now));
    assertArrayEquals(new double[] {10, NaN, 30, 40}, next.series("s", now));
    // Restored into a smaller history, only the newest steps are kept.
    DemandHistory small = new DemandHistory(Duration.ofMinutes(5), 2);
    small.restore(h.save());
    assertArrayEquals(new double[] {30, 40}, small.series("s", now));
  }

  @Test
  void aSnapshotHoldsCompleteBucketsInItsOwnBucketLength() {
    DemandHistory h = new DemandHistory(Duration.ofMinutes(5), 4);
    h.add("s", T0, 10);
    h.add("s", T0.plus(Duration.ofMinutes(5)), 20);
    h.add("s", T0.plus(Duration.ofMinutes(10)), 30); // the newest: may still be filling
    DemandHistory.Snapshot snapshot = h.snapshot();
    assertArrayEquals(new double[] {10, 20}, snapshot.sources().get("s").means());
    // The same until a bucket completes, so a store writes it once a bucket.
    h.add("s", T0.plus(Duration.ofMinutes(11)), 34);
    assertEquals(snapshot.sources().get("s").newest(), h.snapshot().sources().get("s").newest());
    DemandHistory next = new DemandHistory(Duration.ofMinutes(5), 4);
    assertTrue(next.restore(snapshot));
    assertArrayEquals(new double[] {10, 20}, next.series("s", T0.plus(Duration.ofMinutes(10))));
    // Counted in other buckets (the option changed): not restored.
    DemandHistory minutes = new DemandHistory(Duration.ofMinutes(1), 4);
    assertFalse(minutes.restore(snapshot));
    assertEquals(0, minutes.series("s", T0.plus(Duration.ofMinutes(10))).length);
  }
}
