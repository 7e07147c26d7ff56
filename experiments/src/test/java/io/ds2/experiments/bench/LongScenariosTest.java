package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LongScenariosTest {
  @Test
  void everyNexmarkQueryRunsFifteenMinutesOnTheSuitesJob() {
    List<String> names = LongScenarios.nexmark15m().stream().map(Scenario::name).toList();
    assertEquals(
        List.of(
            "nexmark-q1-15m",
            "nexmark-q2-15m",
            "nexmark-q3-15m",
            "nexmark-q5-15m",
            "nexmark-q8-15m",
            "nexmark-q11-15m"),
        names);
    for (String name : names) {
      Scenario run = Scenario.kafkaByName(name);
      Scenario suite = Scenario.byName(name.replace("-15m", ""));
      assertEquals(Duration.ofMinutes(15), run.length());
      assertEquals(suite.job(), run.job());
      assertEquals(suite.phases(), run.phases());
      assertEquals(suite.slotsPerTaskManager(), run.slotsPerTaskManager());
    }
  }
}
