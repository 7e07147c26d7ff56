package io.ds2.core.forecast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Weights chosen once a day: between choices the model runs with them over the grown series, and
 * forecasts as a model whose weights were chosen on it would, to within a percent on a daily
 * pattern.
 */
class KeptWeightsTest {
  private static final int PERIOD = 48;
  private static final HoltWinters.Trend TREND = HoltWinters.Trend.ADDITIVE;

  /** {@code n} steps of a daily swing 200-600 with a little noise. */
  private static double[] days(int n) {
    double[] y = new double[n];
    for (int k = 0; k < n; k++) {
      y[k] = 400 - 200 * Math.cos(2 * Math.PI * k / PERIOD) + 5 * Math.sin(k * 7.3);
    }
    return y;
  }

  @Test
  void weightsAreKeptForAPeriodThenChosenAnew() {
    KeptWeights kept = new KeptWeights(PERIOD, 0);
    double[] y = days(6 * PERIOD);
    double[] chosen = kept.fit(KeptWeights.Role.FULL, y, PERIOD, TREND, 0).weights();
    assertArrayEquals(HoltWinters.fit(y, PERIOD, TREND).weights(), chosen, 0);
    for (int step = 1; step < PERIOD; step++) {
      double[] grown = days(6 * PERIOD + step);
      HoltWinters model = kept.fit(KeptWeights.Role.FULL, grown, PERIOD, TREND, step);
      assertArrayEquals(chosen, model.weights(), 0);
      HoltWinters fresh = HoltWinters.fit(grown, PERIOD, TREND);
      for (int h = 1; h <= PERIOD; h++) {
        assertEquals(fresh.forecast(h), model.forecast(h), 0.01 * fresh.forecast(h));
      }
    }
    double[] later = days(7 * PERIOD);
    assertArrayEquals(
        HoltWinters.fit(later, PERIOD, TREND).weights(),
        kept.fit(KeptWeights.Role.FULL, later, PERIOD, TREND, PERIOD).weights(),
        0);
  }

  @Test
  void aSeriesOfUnderTwoDaysIsFittedAfreshAtEveryStep() {
    KeptWeights kept = new KeptWeights(PERIOD, 0);
    for (int n = PERIOD + 1; n < 2 * PERIOD; n += 7) {
      double[] y = days(n);
      assertArrayEquals(
          HoltWinters.fit(y, PERIOD, TREND).weights(),
          kept.fit(KeptWeights.Role.HOLDOUT, y, PERIOD, TREND, n).weights(),
          0);
    }
    // From two periods on, the weights chosen are kept for a period.
    double[] chosen =
        kept.fit(KeptWeights.Role.HOLDOUT, days(2 * PERIOD), PERIOD, TREND, 0).weights();
    assertArrayEquals(
        chosen,
        kept.fit(KeptWeights.Role.HOLDOUT, days(2 * PERIOD + 5), PERIOD, TREND, 5).weights(),
        0);
  }

  @Test
  void aWeeklySeasonKeepsWeightsOfItsOwnFromAWeekAndADay() {
    KeptWeights kept = new KeptWeights(PERIOD, 0);
    int week = 7 * PERIOD;
    double[] y = days(2 * week);
    double[] daily = kept.fit(KeptWeights.Role.FULL, y, PERIOD, TREND, 0).weights();
    double[] weekly = kept.fit(KeptWeights.Role.FULL, y, week, TREND, 0).weights();
    assertArrayEquals(HoltWinters.fit(y, week, TREND).weights(), weekly, 0);
    // Each season runs on with its own weights until a day has passed.
    double[] grown = days(2 * week + 5);
    assertArrayEquals(daily, kept.fit(KeptWeights.Role.FULL, grown, PERIOD, TREND, 5).weights(), 0);
    assertArrayEquals(weekly, kept.fit(KeptWeights.Role.FULL, grown, week, TREND, 5).weights(), 0);
    // Under a week and a day, a weekly fit is chosen afresh at every step, whatever was kept.
    double[] held = kept.fit(KeptWeights.Role.HOLDOUT, y, week, TREND, 0).weights();
    double[] shorter = days(week + PERIOD - 1);
    for (int k = 0; k < shorter.length; k++) {
      shorter[k] += 40 * Math.sin(k * 0.37); // another series: weights of its own
    }
    assertFalse(Arrays.equals(held, HoltWinters.fit(shorter, week, TREND).weights()));
    assertArrayEquals(
        HoltWinters.fit(shorter, week, TREND).weights(),
        kept.fit(KeptWeights.Role.HOLDOUT, shorter, week, TREND, 6).weights(),
        0);
  }

  @Test
  void theFirstChoiceOfEachSeriesIsStaggeredByItsOffset() {
    // Offset 10: chosen at step 0 as if at step -10, so chosen anew at step PERIOD - 10.
    KeptWeights kept = new KeptWeights(PERIOD, 10);
    kept.fit(KeptWeights.Role.FULL, days(6 * PERIOD), PERIOD, TREND, 0);
    double[] before = days(6 * PERIOD + PERIOD - 11);
    double[] at = days(6 * PERIOD + PERIOD - 10);
    double[] first = kept.fit(KeptWeights.Role.FULL, before, PERIOD, TREND, PERIOD - 11).weights();
    double[] anew = kept.fit(KeptWeights.Role.FULL, at, PERIOD, TREND, PERIOD - 10).weights();
    assertArrayEquals(HoltWinters.fit(days(6 * PERIOD), PERIOD, TREND).weights(), first, 0);
    assertArrayEquals(HoltWinters.fit(at, PERIOD, TREND).weights(), anew, 0);
    int a = KeptWeights.offsetOf("Source: Orders", PERIOD);
    int b = KeptWeights.offsetOf("Source: Payments", PERIOD);
    assertTrue(a >= 0 && a < PERIOD && b >= 0 && b < PERIOD, Arrays.toString(new int[] {a, b}));
  }

  @Test
  void eachFormKeepsWeightsOfItsOwn() {
    KeptWeights kept = new KeptWeights(PERIOD, 0);
    double[] y = days(6 * PERIOD);
    HoltWinters.Trend none = HoltWinters.Trend.NONE;
    double[] trended = kept.fit(KeptWeights.Role.FULL, y, PERIOD, TREND, 0).weights();
    double[] level = kept.fit(KeptWeights.Role.FULL, y, PERIOD, none, 0).weights();
    assertArrayEquals(HoltWinters.fit(y, PERIOD, none).weights(), level, 0);
    assertEquals(0, level[1], 0);
    assertFalse(Arrays.equals(trended, level));
    // A step later each form runs on with the weights chosen for it, not the other's.
    double[] grown = days(6 * PERIOD + 3);
    assertArrayEquals(level, kept.fit(KeptWeights.Role.FULL, grown, PERIOD, none, 3).weights(), 0);
    assertArrayEquals(
        trended, kept.fit(KeptWeights.Role.FULL, grown, PERIOD, TREND, 3).weights(), 0);
  }
}
