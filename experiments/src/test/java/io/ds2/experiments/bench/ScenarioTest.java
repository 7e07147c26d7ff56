package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.experiments.bench.Scenario.Phase;
import io.ds2.workloads.SampleJobs;
import io.ds2.workloads.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScenarioTest {
  @Test
  void eventsFollowTheScheduleThroughStepsAndRamps() {
    Workload job = SampleJobs.ordersAndPayments();
    double b = job.baseRate();
    Scenario s =
        new Scenario(
            "t",
            "x1, then x2 reached over 10 s from 10 s",
            job,
            List.of(new Phase(0, 1), new Phase(10, 2, 10)),
            Duration.ofSeconds(40));
    assertEquals(10 * b, s.eventsBy(10), 1e-6);
    assertEquals(16.25 * b, s.eventsBy(15), 1e-6); // 1 -> 1.5 over 5 s: 6.25 more
    assertEquals(25 * b, s.eventsBy(20), 1e-6);
    assertEquals(45 * b, s.eventsBy(30), 1e-6);
  }

  @Test
  void theLongRunsGiveTheFlinkAutoscalerTimeToActAndKeepTheSuitesOracles() {
    Scenario flat = Scenario.kafkaByName("fanin-long");
    assertEquals(Duration.ofMinutes(30), flat.length());
    Map<String, Integer> x1 =
        Map.of("Source: Orders -> Parse", 3, "Source: Payments", 1, "Join -> Sink", 4);
    assertEquals(x1, flat.oracle(0));
    Scenario step = Scenario.kafkaByName("fanin-step-up-long");
    assertEquals(Duration.ofMinutes(30), step.length());
    assertEquals(900, step.phases().get(1).atSeconds(), 1e-9);
    assertEquals(x1, step.oracle(0));
    assertEquals(
        Map.of("Source: Orders -> Parse", 6, "Source: Payments", 1, "Join -> Sink", 8),
        step.oracle(1));
  }

  @Test
  void theNexmarkQueriesHaveAKafkaFeedWithPhasesTwiceAsLong() {
    Scenario synthetic = Scenario.byName("nexmark-q5");
    Scenario kafka = Scenario.kafkaByName("nexmark-q5");
    assertEquals(synthetic.length().multipliedBy(2), kafka.length());
    assertEquals(synthetic.job(), kafka.job());
    Scenario q5 = Scenario.kafkaByName("nexmark-q5-long");
    assertEquals(Duration.ofMinutes(30), q5.length());
    // Over its own last minute: bids' auction ids roll with the event number, and so does their
    // spread over key groups (17 over the 100 s run's last minute).
    assertEquals(17, synthetic.oracle(0).get("Q5 Sliding Count -> Sink"));
    assertEquals(19, q5.oracle(0).get("Q5 Sliding Count -> Sink"));
  }
}
