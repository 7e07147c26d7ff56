package io.ds2.core.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Ds2OptionsTest {
  @Test
  void defaultsComeFromTheSpecs() {
    Ds2Options o = Ds2Options.defaults();
    assertEquals(Duration.ofSeconds(30), o.window());
    assertEquals(Duration.ofSeconds(30), o.warmUp());
    assertEquals(Duration.ofSeconds(2), o.sampleInterval());
    assertEquals(1.0, o.targetUtilization());
    assertEquals(1, o.minParallelism());
    assertTrue(o.maxParallelism().isEmpty());
    assertTrue(o.catchUp().isEmpty());
  }

  @Test
  void everyBadValueNamesTheOption() {
    assertMessage(
        Map.of("window", "30"),
        "invalid value '30' for window: expected a whole number with a unit: ms, s, m or h (e.g."
            + " 30s)");
    assertMessage(
        Map.of("target-utilization", "1.5"),
        "invalid value '1.5' for target-utilization: must be in (0, 1]");
    assertMessage(
        Map.of("target-utilization", "abc"),
        "invalid value 'abc' for target-utilization: not a number");
    assertMessage(
        Map.of("min-parallelism", "4", "max-parallelism", "2"),
        "invalid value '2' for max-parallelism: must be >= min-parallelism (4)");
    assertMessage(Map.of("windw", "30s"), "invalid value '30s' for windw: unknown option");
    assertMessage(
        Map.of("catch-up", "0s"), "invalid value '0s' for catch-up: must be at least 1ms");
    assertMessage(
        Map.of("align-keyed", "maybe"),
        "invalid value 'maybe' for align-keyed: expected true or false");
    assertMessage(
        Map.of("activation", "0"), "invalid value '0' for activation: must be between 1 and 1000");
  }

  private static void assertMessage(Map<String, String> given, String message) {
    InvalidOptionException ex =
        assertThrows(InvalidOptionException.class, () -> Ds2Options.fromMap(given));
    assertEquals(message, ex.getMessage());
  }

  @Test
  void aBadValueCannotBreakTheLineItIsReportedOn() {
    InvalidOptionException e =
        assertThrows(
            InvalidOptionException.class,
            () -> Ds2Options.fromMap(Map.of("window", "30s\nwindow: 1s\u2028\u0000")));
    assertEquals(
        "invalid value '30s\\nwindow: 1s\\u2028\\u0000' for window: " + e.rule(), e.getMessage());
  }

  @Test
  void durationsRoundTrip() {
    for (String s : new String[] {"500ms", "30s", "5m", "2h"}) {
      assertEquals(s, Durations.format(Durations.parse(s)));
    }
    assertEquals(Duration.ofSeconds(90), Durations.parse(" 90s "));
    assertThrows(IllegalArgumentException.class, () -> Durations.parse("-5s"));
    assertThrows(IllegalArgumentException.class, () -> Durations.parse("5 days"));
  }
}
