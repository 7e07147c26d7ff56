package io.ds2.core.policy;

import io.ds2.core.estimate.DemandEstimator;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.policy.VertexTargets.Proposal;
import io.ds2.core.window.VertexObservation;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A window taken while a saturated source drains its backlog, the drain due to end within a window:
 * the arrival it reads is the least sure of any window's, and the job keeps up whatever it says. At
 * Kafka's default fetch a draining consumer's lag counts each partition's head only as it reaches
 * that partition's next fetch, so the lag falls more slowly than the backlog does (a 400/s arrival
 * read as 633 and 752/s after a rescale at 1 MiB fetches, and 6 -> 12 instances from it). Meanwhile
 * every source reads more than even that reading says arrives, so every vertex keeps up at its
 * present parallelism: a scale-up would be for headroom only. The policy decides on the next window
 * instead, once, as on a load change within a window; a source falling behind by its own reading is
 * never held so.
 */
final class Draining {
  /**
   * Share of what a source reads by which the arrival its lag shows must fall short of it: a source
   * whose lag is blind to what arrives (at Kafka's default fetch, before it is ever ahead; see
   * {@code HiddenHeads}) shows about what it reads as arriving, give or take the gauge's steps (140
   * of 148/s read, 400/s arriving, in a recorded run). Only a clear surplus says it keeps up.
   */
  static final double MIN_SURPLUS = 0.1;

  private Draining() {}

  /**
   * Why a scale-up among {@code proposals} waits for the drain to end, in one line; empty where
   * none is proposed but for a forecast, a source's demand was stated or extrapolated, some source
   * reads less than is estimated to arrive, or no saturated source reads clearly more than arrives
   * with its drain due to end within a window.
   */
  static Optional<String> of(JobGraph graph, Estimate estimate, List<Proposal> proposals) {
    // A rise the forecast asks for does not rest on this window's arrival reading: never held.
    if (proposals.stream()
        .noneMatch(
            p ->
                p.proposed() > p.estimate().currentParallelism()
                    && p.estimate().reasons().stream()
                        .noneMatch(r -> r.code() == ReasonCode.FORECAST_AHEAD))) {
      return Optional.empty();
    }
    double window = estimate.window().length().toMillis() / 1000.0;
    String draining = null;
    for (SourceDemand d : estimate.demands().values()) {
      if (d.basis() != SourceDemand.Basis.BACKLOG || d.targetRate() > d.observedRate()) {
        return Optional.empty();
      }
      Optional<VertexObservation> obs = estimate.window().vertex(d.vertexId());
      // The surplus by the arrival the estimate sizes for, not by this window's own lag slope:
      // a blind lag's sawtooth can fall steeply within one window while the arrival fitted over
      // the last windows shows no surplus (recorded: the lag falling 62.3/s for 20 s, 278.5/s
      // fitted as arriving against 295.9/s read, 400/s arriving: a source falling behind).
      double surplus = d.observedRate() - d.targetRate();
      if (draining != null
          || obs.isEmpty()
          || obs.get().backlog().isEmpty()
          || surplus < MIN_SURPLUS * d.observedRate()
          || d.backlogGrowthRate().orElse(0) >= 0
          || !DemandEstimator.neverWaited(obs.get())) {
        continue;
      }
      double left = Math.max(0, obs.get().backlog().get().pendingAtEnd());
      if (left / surplus <= window) {
        draining =
            String.format(
                Locale.ROOT,
                "%s drains its backlog (reads %.1f records/s, %.1f/s read as arriving, %.0f"
                    + " records left: done in about %.0f s), so every vertex keeps up; a window"
                    + " taken mid-drain reads arrivals least surely, and a scale-up for headroom"
                    + " waits for the next window",
                graph.vertex(d.vertexId()).map(v -> v.name()).orElse(d.vertexId()),
                d.observedRate(),
                d.targetRate(),
                left,
                left / surplus);
      }
    }
    return Optional.ofNullable(draining);
  }
}
