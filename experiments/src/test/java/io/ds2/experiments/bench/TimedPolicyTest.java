package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.Estimate;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.DecisionPolicy;
import io.ds2.core.policy.SlotCapacity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TimedPolicyTest {
  @Test
  void passesTheSlotsTheJobCanGetAndTheForecastsLeadToThePolicyItTimes() {
    // Found on Nexmark Q3 on Kafka: the wrapper once dropped the slots, and ds2 asked a 32-slot
    // cluster for 40 (not applied; backing off for the rest of the run).
    SlotCapacity[] seen = new SlotCapacity[1];
    List<Optional<Duration>> leads = new ArrayList<>();
    DecisionPolicy inner =
        new DecisionPolicy() {
          @Override
          public Ds2Options options() {
            return Ds2Options.defaults();
          }

          @Override
          public Decision decide(
              JobGraph graph,
              Estimate estimate,
              SlotCapacity capacity,
              Optional<Duration> forecastLead,
              Instant now) {
            seen[0] = capacity;
            leads.add(forecastLead);
            return null;
          }

          @Override
          public void rescaleApplied() {}

          @Override
          public void rescaleNotApplied(Instant now) {}
        };
    DecisionTimer timer = new DecisionTimer();
    SlotCapacity slots =
        SlotCapacity.of(32, "the cluster's 10 free slots and the 22 the job holds");
    TimedPolicy timed = new TimedPolicy(inner, timer);
    timed.decide(null, null, slots, Instant.EPOCH);
    assertSame(slots, seen[0]);
    assertTrue(timer.medianMicros().isPresent(), "and the decision is timed");
    timed.decide(null, null, slots, Optional.of(Duration.ofSeconds(112)), Instant.EPOCH);
    assertEquals(List.of(Optional.empty(), Optional.of(Duration.ofSeconds(112))), leads);
  }
}
