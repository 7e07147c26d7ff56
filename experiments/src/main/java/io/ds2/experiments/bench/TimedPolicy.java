package io.ds2.experiments.bench;

import io.ds2.core.estimate.Estimate;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.DecisionPolicy;
import io.ds2.core.policy.SlotCapacity;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** A policy whose every decision is timed. */
public record TimedPolicy(DecisionPolicy policy, DecisionTimer timer) implements DecisionPolicy {
  @Override
  public Ds2Options options() {
    return policy.options();
  }

  @Override
  public Ds2Options estimateOptions() {
    return policy.estimateOptions();
  }

  @Override
  public Decision decide(
      JobGraph graph,
      Estimate estimate,
      SlotCapacity capacity,
      Optional<Duration> forecastLead,
      Instant now) {
    long t = System.nanoTime();
    Decision d = policy.decide(graph, estimate, capacity, forecastLead, now);
    timer.add(System.nanoTime() - t);
    return d;
  }

  @Override
  public void rescaleApplied() {
    policy.rescaleApplied();
  }

  @Override
  public void rescaleNotApplied(Instant now) {
    policy.rescaleNotApplied(now);
  }
}
