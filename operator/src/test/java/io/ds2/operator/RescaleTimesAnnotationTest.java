package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RescaleTimesAnnotationTest {
  private static StateAnnotation.Read<List<Duration>> read(String text) {
    return RescaleTimesAnnotation.read(Map.of(RescaleTimesAnnotation.KEY, text)).orElseThrow();
  }

  @Test
  void roundTripsToTheMillisecond() {
    List<Duration> took = List.of(Duration.ofMillis(41_250), Duration.ofSeconds(95));
    String text = RescaleTimesAnnotation.write(took);
    assertEquals("[41.25,95.0]", text);
    assertEquals(took, assertInstanceOf(StateAnnotation.Restored.class, read(text)).value());
    assertTrue(RescaleTimesAnnotation.read(Map.of()).isEmpty());
  }

  @Test
  void whatIsNotAnArrayOfPositiveSecondsIsUnreadableAndSaysWhere() {
    for (String bad : new String[] {"[oops", "{}", "[12, -1]", "[\"12\"]", "[1e999]", "[0]"}) {
      String why = assertInstanceOf(StateAnnotation.Unreadable.class, read(bad)).why();
      assertTrue(why.startsWith("annotation ds2.io/rescale-times is unreadable ("), why);
    }
  }
}
