package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ds2.core.forecast.DemandHistory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DemandHistoryAnnotationTest {
  private static final Duration FIVE_MINUTES = Duration.ofMinutes(5);
  private static final int DAY = 288; // five-minute steps

  /** {@code days} of a noisy daily load at one source, NaN where nothing was measured. */
  private static double[] days(int days, long seed) {
    Random r = new Random(seed);
    double[] means = new double[days * DAY];
    for (int i = 0; i < means.length; i++) {
      means[i] =
          i % 97 == 0
              ? Double.NaN
              : 400 - 200 * Math.cos(2 * Math.PI * i / DAY) + 20 * r.nextGaussian();
    }
    return means;
  }

  private static DemandHistory.Snapshot restored(String text) {
    StateAnnotation.Read<DemandHistory.Snapshot> read =
        DemandHistoryAnnotation.read(Map.of(DemandHistoryAnnotation.KEY, text)).orElseThrow();
    return read instanceof StateAnnotation.Restored<DemandHistory.Snapshot> r
        ? r.value()
        : fail(read.toString());
  }

  @Test
  void twoWeeksOfTwoSourcesRoundTripToFloatPrecision() {
    Map<String, DemandHistory.Saved> sources = new LinkedHashMap<>();
    sources.put("Source: Orders", new DemandHistory.Saved(5_000_000, days(14, 1)));
    sources.put("Source: Payments", new DemandHistory.Saved(5_000_000, days(14, 2)));
    String text =
        DemandHistoryAnnotation.write(
                new DemandHistory.Snapshot(FIVE_MINUTES, sources), DAY, 3 * DAY)
            .orElseThrow();
    assertTrue(text.length() < DemandHistoryAnnotation.MAX_CHARS, text.length() + " chars");
    DemandHistory.Snapshot back = restored(text);
    assertEquals(FIVE_MINUTES, back.bucket());
    for (String source : sources.keySet()) {
      double[] want = sources.get(source).means();
      double[] got = back.sources().get(source).means();
      assertEquals(5_000_000, back.sources().get(source).newest());
      assertEquals(want.length, got.length);
      for (int i = 0; i < want.length; i++) {
        if (Double.isNaN(want[i])) {
          assertTrue(Double.isNaN(got[i]), "a gap stays a gap");
        } else {
          assertEquals(want[i], got[i], want[i] * 1e-6);
        }
      }
    }
    assertTrue(DemandHistoryAnnotation.read(Map.of()).isEmpty(), "absent: nothing to restore");
  }

  @Test
  void tooLargeAHistoryDropsEverySourcesOldestDaysFirstButNotBelowWhatAForecastNeeds() {
    Map<String, DemandHistory.Saved> many = new LinkedHashMap<>();
    for (int s = 0; s < 12; s++) {
      many.put("Source " + s, new DemandHistory.Saved(9_000, days(14, s)));
    }
    DemandHistory.Snapshot snapshot = new DemandHistory.Snapshot(FIVE_MINUTES, many);
    String text = DemandHistoryAnnotation.write(snapshot, DAY, 3 * DAY).orElseThrow();
    assertTrue(text.length() <= DemandHistoryAnnotation.MAX_CHARS);
    DemandHistory.Snapshot back = restored(text);
    for (int s = 0; s < 12; s++) {
      double[] kept = back.sources().get("Source " + s).means();
      assertTrue(kept.length < 14 * DAY && kept.length >= 3 * DAY, kept.length + " steps");
      assertEquals(0, kept.length % DAY, "whole days dropped");
      double[] all = many.get("Source " + s).means();
      // The newest steps, unchanged, ending at the same bucket.
      assertEquals((float) all[all.length - 1], (float) kept[kept.length - 1]);
      assertEquals(9_000, back.sources().get("Source " + s).newest());
    }
    // Forty sources do not fit even at three days each: nothing is written.
    Map<String, DemandHistory.Saved> tooMany = new LinkedHashMap<>();
    for (int s = 0; s < 40; s++) {
      tooMany.put("Source " + s, new DemandHistory.Saved(9_000, days(14, s)));
    }
    assertTrue(
        DemandHistoryAnnotation.write(
                new DemandHistory.Snapshot(FIVE_MINUTES, tooMany), DAY, 3 * DAY)
            .isEmpty());
  }

  @Test
  void whatDs2DidNotWriteIsUnreadableAndSaysWhy() {
    for (String bad :
        new String[] {
          "[]",
          "not json",
          "{\"bucketSeconds\":0,\"sources\":{}}",
          "{\"bucketSeconds\":300}",
          "{\"bucketSeconds\":300,\"sources\":{\"s\":{\"newest\":1}}}",
          "{\"bucketSeconds\":300,\"sources\":{\"s\":{\"newest\":1,\"means\":\"%%%\"}}}",
          "{\"bucketSeconds\":300,\"sources\":{\"s\":{\"newest\":1,\"means\":\"AAAA\"}}}"
        }) {
      StateAnnotation.Unreadable<?> u =
          assertInstanceOf(
              StateAnnotation.Unreadable.class,
              DemandHistoryAnnotation.read(Map.of(DemandHistoryAnnotation.KEY, bad)).orElseThrow(),
              bad);
      assertTrue(u.why().startsWith("annotation ds2.io/demand-history is unreadable ("), u.why());
    }
    // A negative rate is no rate ds2 measured.
    Map<String, DemandHistory.Saved> negative =
        Map.of("s", new DemandHistory.Saved(1, new double[] {1, -5}));
    String text =
        DemandHistoryAnnotation.write(new DemandHistory.Snapshot(FIVE_MINUTES, negative), DAY, DAY)
            .orElseThrow();
    assertInstanceOf(
        StateAnnotation.Unreadable.class,
        DemandHistoryAnnotation.read(Map.of(DemandHistoryAnnotation.KEY, text)).orElseThrow());
  }
}
