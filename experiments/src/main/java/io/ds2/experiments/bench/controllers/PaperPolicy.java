package io.ds2.experiments.bench.controllers;

import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.KeySpread;
import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.DecisionPolicy;
import io.ds2.core.policy.SlotCapacity;
import io.ds2.core.policy.VertexDecision;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The DS2 baseline: the paper's equations (the same DS2 estimate ds2 computes, ceil of in* over the
 * true rate per instance) with the reference scaling manager's rules as we read them — ignore
 * windows during warm-up (the collector does), act once {@code activation} consecutive windows
 * asked for a change, then apply the latest recommendation at once (no scale-down delay, no step
 * limits, no learned scaling curve), and ignore a vertex's scale-down by exactly one instance. The
 * reference's target-rate ratio is not modelled: every source's demand is its measured one. DS2
 * assumes every vertex's input spreads evenly over its subtasks, so a keyed vertex gets DS2's
 * bound, not ds2's key-group sizing.
 */
public final class PaperPolicy implements DecisionPolicy {
  private final Ds2Options options;
  private int windowsAsking;

  public PaperPolicy(Ds2Options options) {
    this.options = options;
  }

  @Override
  public Ds2Options options() {
    return options;
  }

  /** DS2's own rules do not look at the cluster's slots, nor at a forecast. */
  @Override
  public Decision decide(
      JobGraph graph,
      Estimate estimate,
      SlotCapacity capacity,
      Optional<Duration> forecastLead,
      Instant now) {
    Map<String, Integer> target = new LinkedHashMap<>();
    List<VertexDecision> vertices = new ArrayList<>();
    boolean change = false;
    for (VertexEstimate v : estimate.vertices()) {
      int recommended =
          v.keySpread().map(KeySpread::ds2Parallelism).orElse(v.recommendedParallelism());
      int t = recommended;
      List<Reason> reasons = new ArrayList<>(v.reasons());
      reasons.removeIf(r -> r.code() == ReasonCode.UNEVEN_INPUT); // ds2's sizing, not DS2's
      if (t == v.currentParallelism() - 1) {
        t = v.currentParallelism();
        reasons.add(new Reason(ReasonCode.NO_CHANGE, "DS2 ignores a scale-down by exactly one"));
      }
      change |= t != v.currentParallelism();
      target.put(v.vertexId(), t);
      vertices.add(
          new VertexDecision(
              v.vertexId(), v.name(), v.source(), v.currentParallelism(), recommended, t, reasons));
    }
    if (!estimate.complete() || !change) {
      windowsAsking = 0;
      return hold(
          now, estimate, vertices, estimate.complete() ? "no change" : "estimate incomplete");
    }
    windowsAsking++;
    if (windowsAsking < options.activation()) {
      return hold(
          now, estimate, vertices, windowsAsking + " of " + options.activation() + " windows");
    }
    windowsAsking = 0;
    return new Decision(now, estimate, vertices, new Action.Rescale(target));
  }

  private Decision hold(Instant now, Estimate estimate, List<VertexDecision> vertices, String why) {
    List<VertexDecision> held = new ArrayList<>();
    for (VertexDecision v : vertices) {
      held.add(
          new VertexDecision(
              v.vertexId(),
              v.name(),
              v.source(),
              v.current(),
              v.recommended(),
              v.current(),
              v.reasons()));
    }
    return new Decision(
        now, estimate, held, new Action.Hold(new Reason(ReasonCode.NO_CHANGE, why)));
  }

  @Override
  public void rescaleApplied() {
    windowsAsking = 0;
  }

  @Override
  public void rescaleNotApplied(Instant now) {
    windowsAsking = 0;
  }
}
