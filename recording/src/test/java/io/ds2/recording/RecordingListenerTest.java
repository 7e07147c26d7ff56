package io.ds2.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.forecast.Outlook;
import io.ds2.core.forecast.SeasonalForecaster;
import io.ds2.core.scaler.ScalerEvent;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A window's forecast, or why there was none, is kept in the recording beside its decision. */
class RecordingListenerTest {
  @TempDir Path dir;

  @Test
  void eachWindowsForecastIsRecordedAsAnEventAndSoIsItsAbsence() throws Exception {
    Path file = dir.resolve("r.jsonl.gz");
    Clock clock = Clock.fixed(ChainRecording.START.plusSeconds(60), ZoneOffset.UTC);
    try (RecordingWriter w = RecordingWriter.create(file)) {
      w.write(ChainRecording.header());
      RecordingListener listener = new RecordingListener(w, clock);
      listener.on(
          null,
          new ScalerEvent.Forecasted(
              new Outlook.Ahead(
                  Duration.ofSeconds(81),
                  Map.of("Orders", 220.0),
                  Map.of("Orders", 395.0),
                  0.12,
                  Set.of()),
              Map.of("join", 3),
              Map.of("join", 5),
              true));
      listener.on(
          null,
          new ScalerEvent.Forecasted(
              new Outlook.None(
                  SeasonalForecaster.Reason.HOLDOUT_ERROR, "Orders", "held-out day 31 % off"),
              Map.of("join", 3),
              Map.of(),
              true));
    }
    try (RecordingReader r = RecordingReader.open(file, false)) {
      var ahead = assertInstanceOf(Recorded.Event.class, r.next().orElseThrow());
      assertEquals("forecast", ahead.kind());
      assertEquals(clock.instant(), ahead.time());
      assertTrue(
          ahead.message().startsWith("forecast: Orders up to 395.0/s (now 220.0/s)"),
          ahead.message());
      assertTrue(ahead.details().get("available").asBoolean(), ahead.details().toString());
      assertEquals(395.0, ahead.details().get("sources").get("Orders").get("peak").asDouble());
      var none = assertInstanceOf(Recorded.Event.class, r.next().orElseThrow());
      assertEquals("forecast", none.kind());
      assertFalse(none.details().get("available").asBoolean(), none.details().toString());
      assertEquals("HOLDOUT_ERROR", none.details().get("reason").asText());
      assertTrue(r.next().isEmpty());
    }
  }
}
