package io.ds2.core.policy;

import io.ds2.core.estimate.Estimate;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.options.Ds2Options;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Turns each clean window's estimate into a decision, and learns what became of the rescales it
 * asked for. {@link ScalingPolicy} is ds2's; benchmarks plug in baselines (e.g. DS2's own rules).
 */
public interface DecisionPolicy {
  /** Windows, warm-up and timeouts the loop collects and acts with. */
  Ds2Options options();

  /**
   * The options the next window's estimate is made with: {@link #options()}, unless the policy
   * learnt that the job cannot be run as hot as configured ({@link ScalingPolicy}).
   */
  default Ds2Options estimateOptions() {
    return options();
  }

  /**
   * Decides on one window's estimate at {@code now} (time is only ever an argument), knowing how
   * many slots the job can get; a policy that does not look at slots (DS2's own rules) ignores
   * them. The one method to implement, so that a policy wrapped in another (timed, logged) cannot
   * lose the slots (or the forecast's lead) on the way: a default that dropped them once let every
   * benchmark ask for more slots than its cluster had.
   *
   * @param forecastLead how far ahead a forecast acting on the job looked for this window (the
   *     estimate is already raised to what the forecast needs within it); empty where none did
   */
  Decision decide(
      JobGraph graph,
      Estimate estimate,
      SlotCapacity capacity,
      Optional<Duration> forecastLead,
      Instant now);

  /**
   * As {@link #decide(JobGraph, Estimate, SlotCapacity, Optional, Instant)} where no forecast acts
   * on the job.
   */
  default Decision decide(JobGraph graph, Estimate estimate, SlotCapacity capacity, Instant now) {
    return decide(graph, estimate, capacity, Optional.empty(), now);
  }

  /** As {@link #decide(JobGraph, Estimate, SlotCapacity, Instant)}, the slots unknown. */
  default Decision decide(JobGraph graph, Estimate estimate, Instant now) {
    return decide(graph, estimate, SlotCapacity.unknown(), now);
  }

  /** The job now runs at the requested parallelism. */
  void rescaleApplied();

  /** Flink did not apply the rescale (e.g. too few slots), as found at {@code now}. */
  void rescaleNotApplied(Instant now);
}
