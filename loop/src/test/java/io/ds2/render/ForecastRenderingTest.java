package io.ds2.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.core.forecast.Outlook;
import io.ds2.core.forecast.SeasonalForecaster;
import io.ds2.core.scaler.ScalerEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ForecastRenderingTest {
  /** Source Orders, 75 s of lead time. */
  private static Outlook.Ahead orders(
      double measured, double peak, double error, Set<String> weekly) {
    return new Outlook.Ahead(
        Duration.ofSeconds(75), Map.of("Orders", measured), Map.of("Orders", peak), error, weekly);
  }

  @Test
  void aForecastAboveTheMeasuredDemandSaysWhatItWouldNeed() {
    var f =
        new ScalerEvent.Forecasted(
            orders(800, 1200, 0.04, Set.of()), Map.of("p", 4), Map.of("p", 6), false);
    assertEquals(
        "forecast: Orders up to 1200.0/s (now 800.0/s) within 75 s (error 4 %); would need p 6"
            + " (measured: 4) (advice only)",
        ForecastRendering.line(null, f));
    assertEquals(
        "{\"type\":\"forecast\",\"time\":\"2026-01-01T00:00:00Z\",\"available\":true,"
            + "\"leadSeconds\":75,\"error\":0.04,\"sources\":{\"Orders\":"
            + "{\"measured\":800.0,\"peak\":1200.0,\"season\":\"daily\"}},\"acted\":false,\"wouldNeed\":{\"p\":6}}",
        ForecastRendering.json(null, f, Instant.parse("2026-01-01T00:00:00Z")).toString());
  }

  @Test
  void aSourceForecastByItsWeekSaysSo() {
    var f =
        new ScalerEvent.Forecasted(
            orders(300, 320, 0.05, Set.of("Orders")), Map.of("p", 2), Map.of(), true);
    assertEquals(
        "forecast: Orders up to 320.0/s (now 300.0/s; by its weekly pattern) within 75 s (error 5"
            + " %); no more than measured needed",
        ForecastRendering.line(null, f));
    assertEquals(
        "weekly",
        ForecastRendering.json(null, f, Instant.EPOCH)
            .get("sources")
            .get("Orders")
            .get("season")
            .asText());
  }

  @Test
  void noForecastSaysWhyAndThatTheMeasuredDemandIsSizedFor() {
    var f =
        new ScalerEvent.Forecasted(
            new Outlook.None(
                SeasonalForecaster.Reason.PATTERN_BROKEN, "Orders", "the pattern is broken"),
            Map.of(),
            Map.of(),
            false);
    assertEquals(
        "forecast: none for Orders (the pattern is broken); sizing for the measured demand",
        ForecastRendering.line(null, f));
  }
}
