package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.workloads.SampleJobs;
import io.ds2.workloads.source.RateSchedule;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The load schedule a Kafka-fed run's producers write. */
class KafkaFeedTest {
  private static Scenario scenario(List<Scenario.Phase> phases) {
    return new Scenario(
        "s", "test", SampleJobs.ordersAndPayments(), phases, Duration.ofSeconds(120));
  }

  @Test
  void aStepMultipliesTheBaseRateFromItsSecondOn() {
    Scenario s = scenario(List.of(new Scenario.Phase(0, 1), new Scenario.Phase(70, 2)));
    RateSchedule r = KafkaFeed.schedule(s, RateSchedule.constant(300));
    assertEquals(300, r.rateAt(69.9), 1e-9);
    assertEquals(600, r.rateAt(70), 1e-9);
    assertEquals(300 * 70 + 600 * 50, r.integral(0, 120), 1e-6);
  }

  @Test
  void aRampStepsOnceASecondAsTheSyntheticSourcesDo() {
    // x1 -> x2 over 4 s from 30 s on: 1.25, 1.5, 1.75 in its first three seconds, then 2.
    Scenario s = scenario(List.of(new Scenario.Phase(0, 1), new Scenario.Phase(30, 2, 4)));
    RateSchedule r = KafkaFeed.schedule(s, RateSchedule.constant(100));
    assertEquals(100, r.rateAt(29.5), 1e-9);
    assertEquals(125, r.rateAt(30.5), 1e-9);
    assertEquals(150, r.rateAt(31.5), 1e-9);
    assertEquals(175, r.rateAt(32.5), 1e-9);
    assertEquals(200, r.rateAt(33.5), 1e-9);
    assertEquals(200, r.rateAt(100), 1e-9);
  }

  @Test
  void aStepDownStartsAtItsFactor() {
    Scenario s = scenario(List.of(new Scenario.Phase(0, 2), new Scenario.Phase(40, 1)));
    RateSchedule r = KafkaFeed.schedule(s, RateSchedule.constant(300));
    assertEquals(600, r.rateAt(0), 1e-9);
    assertEquals(300, r.rateAt(40), 1e-9);
  }
}
