package io.ds2.experiments.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A soak's slopes: growth from cycle to cycle, not the saw-tooth of its load within a cycle. */
class SlopesTest {
  private record Reading(double seconds, double value) {}

  /** Readings every 30 s for {@code hours}, a saw-tooth of period 300 s, plus {@code perHour}. */
  private static List<Reading> sawTooth(double hours, double offset, double perHour) {
    List<Reading> out = new ArrayList<>();
    for (double t = 30 + offset; t < hours * 3600; t += 30) {
      double tooth = (t % 300) < 150 ? 3521 : 3801;
      out.add(new Reading(t, tooth + perHour * t / 3600));
    }
    return out;
  }

  @Test
  void aReadingThatRepeatsEveryCycleHasNoSlopeWhereverTheFitStarts() {
    for (double offset : new double[] {0, 1, 17}) {
      List<Reading> r = sawTooth(2, offset, 0);
      double overCycles =
          Slopes.perHourOverCycles(r, Reading::seconds, Reading::value, 300, 300, 7200);
      assertEquals(0, overCycles, 1e-9, "offset " + offset);
    }
    // The raw fit over the same readings in a short run turns the saw-tooth into a slope.
    List<Reading> tenMinutes =
        sawTooth(10 / 60.0, 0, 0).stream().filter(x -> x.seconds() >= 60).toList();
    assertTrue(
        Math.abs(Slopes.perHour(tenMinutes, Reading::seconds, Reading::value)) > 100,
        "the raw fit of a 10-minute saw-tooth reads as growth");
  }

  @Test
  void growthFromCycleToCycleIsItsSlope() {
    List<Reading> r = sawTooth(2, 1, 12.5);
    assertEquals(
        12.5, Slopes.perHourOverCycles(r, Reading::seconds, Reading::value, 300, 300, 7200), 1e-6);
  }

  @Test
  void onlyWholeCyclesCount() {
    List<Reading> r = sawTooth(1, 0, 0);
    var cycles = Slopes.cycles(r, Reading::seconds, Reading::value, 300, 300, 3500);
    assertEquals(10, cycles.size(), "300-3300 s: ten whole cycles; 3300-3500 is not one");
    assertEquals(3000, cycles.get(cycles.size() - 1).fromSeconds(), 1e-9);
    assertEquals(10, cycles.get(0).readings());
    assertThrows(
        IllegalArgumentException.class,
        () -> Slopes.cycles(r, Reading::seconds, Reading::value, 0, 0, 3600));
  }

  @Test
  void theSoaksCycleIsWhenDemandAndChurnRepeatTogether() {
    assertEquals(
        Duration.ofSeconds(300),
        SoakBenchmark.cycle(Duration.ofSeconds(150), Duration.ofSeconds(60)));
    assertEquals(
        Duration.ofSeconds(2100),
        SoakBenchmark.cycle(Duration.ofSeconds(150), Duration.ofSeconds(70)));
    assertThrows(
        IllegalArgumentException.class,
        () -> SoakBenchmark.cycle(Duration.ZERO, Duration.ofSeconds(60)));
  }
}
