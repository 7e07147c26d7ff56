package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The compressed days repeat: the same level at the same minute of every day, noise aside. */
class DiurnalScenarioTest {
  private static double factorAt(Scenario s, double seconds) {
    return s.phases().get(s.phaseAt(seconds)).factor();
  }

  @Test
  void everyDayHasItsNightMorningLunchAndEvening() {
    Scenario s = Scenario.kafkaByName("diurnal");
    assertEquals(Duration.ofMinutes(80), s.length());
    for (int day = 0; day < DiurnalScenario.DAYS; day++) {
      double start = day * DiurnalScenario.DAY_SECONDS;
      double high = 1 + DiurnalScenario.NOISE;
      double low = 1 - DiurnalScenario.NOISE;
      assertTrue(factorAt(s, start + 3 * 60 + 30) <= 0.5 * high, "night");
      assertTrue(factorAt(s, start + 9 * 60 + 30) >= 1.0 * low, "morning");
      assertTrue(factorAt(s, start + 11 * 60 + 30) >= 1.5 * low, "lunch");
      assertTrue(factorAt(s, start + 17 * 60 + 30) <= 0.5 * high, "evening");
    }
    // The lunch peak needs twice the night's oracle and more at the source.
    int night = s.oracle(s.phaseAt(3 * 60 + 30)).get("Join -> Sink");
    int lunch = s.oracle(s.phaseAt(11 * 60 + 30)).get("Join -> Sink");
    assertTrue(lunch >= 2 * night, night + " at night, " + lunch + " at lunch");
  }
}
