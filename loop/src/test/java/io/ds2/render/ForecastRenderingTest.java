package io.ds2.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.core.forecast.Outlook;
import io.ds2.core.forecast.SeasonalForecaster;
import io.ds2.core.scaler.ScalerEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ForecastRenderingTest {
  @Test
  void aForecastAboveTheMeasuredDemandSaysWhatItWouldNeed() {
    var f =
        new ScalerEvent.Forecasted(
            new Outlook.Ahead(
                Duration.ofSeconds(75),
                Map.of("Orders", 800.0),
                Map.of("Orders", 1200.0),
                Duration.ofSeconds(375),
                Map.of("Orders", 1300.0),
                0.04),
            Map.of("p", 4),
            Map.of("p", 6),
            false);
    assertEquals(
        "forecast: Orders up to 1200.0/s (now 800.0/s) within 75 s (error 4 %); would need p 6"
            + " (measured: 4) (advice only)",
        ForecastRendering.line(null, f));
    assertEquals(
        "{\"type\":\"forecast\",\"time\":\"2026-01-01T00:00:00Z\",\"available\":true,"
            + "\"leadSeconds\":75,\"holdSeconds\":375,\"error\":0.04,\"sources\":{\"Orders\":"
            + "{\"measured\":800.0,\"peak\":1200.0,\"holdPeak\":1300.0}},\"acted\":false,\"wouldNeed\":{\"p\":6}}",
        ForecastRendering.json(null, f, Instant.parse("2026-01-01T00:00:00Z")).toString());
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
