package io.ds2.core.forecast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SeasonalForecasterTest {
  // A "day" of 96 steps (15-minute buckets): a morning ramp to a lunch peak, a quiet night.
  private static final int DAY = 96;
  private final SeasonalForecaster forecaster = new SeasonalForecaster(DAY, DAY / 8, 0.15);

  /** Records/s at step t: 200 at night, up to ~1,000 at noon, growing {@code trend} a step. */
  private static double daily(int t, double trend) {
    double phase = (t % DAY) / (double) DAY;
    return 200 + 800 * Math.max(0, Math.sin(Math.PI * (phase - 0.25) / 0.6)) + trend * t;
  }

  private static double[] days(int n, double noise, double trend, long seed) {
    Random r = new Random(seed);
    double[] y = new double[n * DAY];
    for (int t = 0; t < y.length; t++) {
      y[t] = daily(t, trend) * (1 + noise * r.nextGaussian());
    }
    return y;
  }

  @Test
  void aDailyPatternWithNoiseAndATrendIsForecastWithItsErrorReported() {
    double[] history = days(4, 0.03, 0.2, 1);
    var f = assertInstanceOf(SeasonalForecaster.Forecast.class, forecaster.forecast(history, DAY));
    assertTrue(f.holdoutError() < 0.06, "holdout error " + f.holdoutError());
    assertTrue(f.recentError() < 0.08, "recent error " + f.recentError());
    double err = 0;
    double sum = 0;
    for (int h = 0; h < DAY; h++) {
      double truth = daily(history.length + h, 0.2);
      err += Math.abs(f.ahead()[h] - truth);
      sum += truth;
    }
    assertTrue(err / sum < 0.06, "next day off by " + err / sum);
    // The lunch peak is ahead of the night: the peak over the next day is near noon's.
    assertEquals(daily(history.length + DAY / 2, 0.2), f.peak(DAY), 120);
  }

  /**
   * A week of {@link #daily} days whose weekends (days 0 and 6 of each week) peak at a quarter of a
   * weekday's rise.
   */
  private static double weekly(int t) {
    int day = t / DAY % 7;
    double phase = (t % DAY) / (double) DAY;
    double rise = Math.max(0, Math.sin(Math.PI * (phase - 0.25) / 0.6));
    return 200 + (day == 0 || day == 6 ? 200 : 800) * rise;
  }

  private static double[] weeklyFrom(int firstDay, int steps, long seed) {
    Random r = new Random(seed);
    double[] y = new double[steps];
    for (int t = 0; t < steps; t++) {
      y[t] = weekly(firstDay * DAY + t) * (1 + 0.03 * r.nextGaussian());
    }
    return y;
  }

  @Test
  void aWeeklyPatternIsFollowedOnceTwoWeeksAreSeen() {
    // Two weeks, held out the last day but 12 steps: day 13, a Saturday after five weekdays; now
    // early on a Sunday. The daily season alone, with a day less to learn from, would forecast
    // that Saturday as a weekday: no forecast.
    int recent = DAY / 8;
    var daily =
        assertInstanceOf(
            SeasonalForecaster.NoForecast.class,
            forecaster.forecast(weeklyFrom(1, 13 * DAY + recent, 6), DAY));
    assertEquals(SeasonalForecaster.Reason.HOLDOUT_ERROR, daily.reason(), daily.message());
    double[] twoWeeks = weeklyFrom(0, 14 * DAY + recent, 6);
    var f = assertInstanceOf(SeasonalForecaster.Forecast.class, forecaster.forecast(twoWeeks, DAY));
    assertEquals(SeasonalForecaster.Season.WEEKLY, f.season());
    assertTrue(f.holdoutError() < 0.06, "holdout error " + f.holdoutError());
    // The rest of the Sunday, a weekend day, is forecast as one: its peak near a weekend's noon.
    double err = 0;
    double sum = 0;
    for (int h = 0; h < DAY - recent; h++) {
      double truth = weekly(twoWeeks.length + h);
      err += Math.abs(f.ahead()[h] - truth);
      sum += truth;
    }
    assertTrue(err / sum < 0.08, "the Sunday off by " + err / sum);
    assertEquals(weekly(14 * DAY + DAY / 2), f.peak(DAY - recent), 60);
  }

  @Test
  void aDailyPatternStaysDailyWithTwoWeeksSeen() {
    var f =
        assertInstanceOf(
            SeasonalForecaster.Forecast.class, forecaster.forecast(days(14, 0.03, 0, 7), DAY));
    assertEquals(SeasonalForecaster.Season.DAILY, f.season());
  }

  @Test
  void noForecastBeforeAPeriodToLearnAndAPeriodToTest() {
    var none =
        assertInstanceOf(
            SeasonalForecaster.NoForecast.class, forecaster.forecast(days(2, 0.03, 0, 2), 10));
    assertEquals(SeasonalForecaster.Reason.NOT_ENOUGH_HISTORY, none.reason());
    assertEquals(
        "192 of the 205 steps needed (a period to learn from, a period and the latest 12 steps"
            + " held out to test it)",
        none.message());
  }

  @Test
  void aHolidayThatBreaksThePatternStopsTheForecast() {
    double[] history = days(4, 0.03, 0, 3);
    // Today the morning ramp never comes: the last 12 steps (3 hours, from 9:00) stay at night.
    int today = 3 * DAY;
    for (int t = today + 36; t < today + 48; t++) {
      history[t] = 200;
    }
    double[] upToNow = java.util.Arrays.copyOf(history, today + 48);
    var none =
        assertInstanceOf(SeasonalForecaster.NoForecast.class, forecaster.forecast(upToNow, 8));
    assertEquals(SeasonalForecaster.Reason.PATTERN_BROKEN, none.reason(), none.message());
  }

  @Test
  void loadWithoutARecurringPatternIsNotForecast() {
    Random r = new Random(4);
    double[] noise = new double[4 * DAY];
    for (int t = 0; t < noise.length; t++) {
      noise[t] = 500 * (1 + 0.6 * r.nextDouble());
    }
    for (int t = 0; t < noise.length; t += 7) {
      noise[t] *= 3; // bursts
    }
    var none = assertInstanceOf(SeasonalForecaster.NoForecast.class, forecaster.forecast(noise, 8));
    assertEquals(SeasonalForecaster.Reason.HOLDOUT_ERROR, none.reason(), none.message());
  }

  @Test
  void fewGapsAreFilledLinearlyTooManyAreNotEnoughHistory() {
    assertArrayEquals(
        new double[] {2, 2, 4, 6, 8, 8},
        SeasonalForecaster.filled(
            new double[] {Double.NaN, 2, Double.NaN, Double.NaN, 8, Double.NaN}),
        1e-9);
    double[] holey = days(4, 0.03, 0, 5);
    for (int t = 0; t < holey.length; t += 5) {
      holey[t] = Double.NaN;
    }
    var none = assertInstanceOf(SeasonalForecaster.NoForecast.class, forecaster.forecast(holey, 8));
    assertEquals(SeasonalForecaster.Reason.NOT_ENOUGH_HISTORY, none.reason());
  }

  /**
   * Orders' arrival rate per minute as ds2 learnt it in the diurnal benchmark (20-minute days:
   * night ~200/s, a morning ramp at minutes 6-8 to ~400/s, lunch at 10-11 to ~590/s), up to day 3's
   * minute 9, just before lunch; gaps where rescales left a minute unmeasured. Fitted with a trend
   * on the period and 8 steps before the held-out day, its trend weight went to 1: the trend
   * followed the morning ramp the series ends in and carried it 20 steps ahead, the held-out day 30
   * % off, and there was no forecast at lunch.
   */
  private static final double[] DIURNAL_ORDERS = {
    203,
    208,
    Double.NaN,
    204,
    199,
    206,
    253,
    367,
    383,
    389,
    565,
    Double.NaN,
    513,
    387,
    291,
    206,
    197,
    196,
    192,
    197,
    202,
    198,
    200,
    194,
    188,
    170,
    253,
    329,
    409,
    407,
    472,
    627,
    540,
    391,
    276,
    206,
    200,
    205,
    191,
    194,
    197,
    202,
    194,
    194,
    202,
    199,
    250,
    350,
    407,
    385
  };

  @Test
  void aRampInsideTheDayIsNotTakenForATrend() {
    var f =
        assertInstanceOf(
            SeasonalForecaster.Forecast.class,
            new SeasonalForecaster(20, 2, 0.15).forecast(DIURNAL_ORDERS, 2));
    assertEquals(HoltWinters.Trend.NONE, f.form());
    assertTrue(f.holdoutError() < 0.15, "holdout error " + f.holdoutError());
    // Lunch comes within two steps: forecast near the earlier days' (565/s; 472/s then 627/s).
    assertEquals(590, f.peak(2), 80);
  }

  @Test
  void aTrendAcrossDaysIsStillFollowed() {
    var f =
        assertInstanceOf(
            SeasonalForecaster.Forecast.class, forecaster.forecast(days(4, 0.01, 1.0, 8), DAY));
    assertEquals(HoltWinters.Trend.ADDITIVE, f.form());
  }
}
