package io.ds2.core.policy;

import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.KeySpread;
import io.ds2.core.estimate.KeyedEstimate;
import io.ds2.core.estimate.ParallelismBounds;
import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.KeyedSizing;
import io.ds2.core.options.Ds2Options;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The stateless per-vertex rules applied to one window's estimate: the learned cost curve, step
 * limits, key-group alignment and the scale-down threshold; and the scale-up tolerance, which
 * {@link ScalingPolicy} applies after activation. Activation and delays are stateful and live in
 * {@link ScalingPolicy}.
 */
final class VertexTargets {
  private VertexTargets() {}

  /** What the vertex should run at according to this window alone. */
  record Proposal(VertexEstimate estimate, int recommended, int proposed, List<Reason> reasons) {}

  static List<Proposal> propose(
      JobGraph graph, Estimate estimate, EfficiencyModel efficiency, Ds2Options o) {
    List<Proposal> result = new ArrayList<>(estimate.vertices().size());
    List<Vertex> order = graph.topologicalOrder();
    for (int i = 0; i < estimate.vertices().size(); i++) {
      VertexEstimate v = estimate.vertices().get(i);
      List<Reason> reasons = new ArrayList<>(v.reasons());
      if (!v.determined()) {
        result.add(new Proposal(v, v.currentParallelism(), v.currentParallelism(), reasons));
        continue;
      }
      // Estimates come in the graph's topological order: no lookup when the position matches.
      Vertex vertex =
          i < order.size() && order.get(i).id().equals(v.vertexId())
              ? order.get(i)
              : graph.vertex(v.vertexId()).orElseThrow();
      int recommended = withCostCurve(i, vertex, v, efficiency, o, reasons);
      int proposed = stepLimited(v.currentParallelism(), recommended, o, reasons);
      if (o.alignKeyed() && keyed(graph, vertex)) {
        proposed = aligned(vertex, v, proposed, o, reasons);
      }
      proposed = thresholded(v.currentParallelism(), proposed, o, reasons);
      result.add(new Proposal(v, recommended, proposed, reasons));
    }
    return result;
  }

  private static int withCostCurve(
      int position,
      Vertex vertex,
      VertexEstimate v,
      EfficiencyModel efficiency,
      Ds2Options o,
      List<Reason> reasons) {
    Optional<CostCurve> curve = efficiency.curve(position, v.vertexId(), o.efficiencyTolerance());
    if (curve.isEmpty() || v.targetInputRate().isEmpty()) {
      return v.recommendedParallelism();
    }
    // The curve replaces DS2's constant per-instance rate: drop DS2's bound reasons, re-bound.
    reasons.removeIf(r -> r.code() != ReasonCode.NO_DEMAND);
    double input = v.targetInputRate().getAsDouble();
    double required = curve.get().requiredParallelism(input, o.targetUtilization());
    reasons.add(
        new Reason(
            Double.isInfinite(required)
                ? ReasonCode.SCALING_NOT_PAYING_OFF
                : ReasonCode.EFFICIENCY_APPLIED,
            curve.get().describe()
                + (Double.isInfinite(required)
                    ? "; no parallelism sustains the demand"
                    : String.format(java.util.Locale.ROOT, "; sized for it: %.2f", required))));
    int p = ParallelismBounds.apply(vertex, required, o, reasons);
    if (v.keySpread().isEmpty() || Double.isInfinite(required)) {
      return p;
    }
    // The busiest subtask must keep up at the curve's cost too.
    KeySpread s =
        KeyedEstimate.size(
            vertex,
            v.keySpread().get().load(),
            input,
            q -> o.targetUtilization() / curve.get().costAt(q),
            p,
            o);
    KeyedEstimate.explain(
        vertex, s, input, q -> o.targetUtilization() / curve.get().costAt(q), o, reasons);
    return s.parallelism();
  }

  private static int stepLimited(int current, int p, Ds2Options o, List<Reason> reasons) {
    int up = (int) Math.max(current + 1, Math.floor(current * o.maxStepUp()));
    int down = (int) Math.max(1, Math.ceil(current / o.maxStepDown()));
    if (p > up) {
      reasons.add(
          new Reason(
              ReasonCode.STEP_LIMITED_UP,
              "wants " + p + "; this step goes to " + up + " (max-step-up " + o.maxStepUp() + ")"));
      return up;
    }
    if (p < down) {
      reasons.add(
          new Reason(
              ReasonCode.STEP_LIMITED_DOWN,
              "wants "
                  + p
                  + "; this step goes to "
                  + down
                  + " (max-step-down "
                  + o.maxStepDown()
                  + ")"));
      return down;
    }
    return p;
  }

  private static boolean keyed(JobGraph graph, Vertex v) {
    return graph.inputsOf(v.id()).stream().anyMatch(Edge::keyed);
  }

  /**
   * The smallest divisor of the max parallelism from {@code p} up (every subtask then owns as many
   * key groups) at which, by the measured spread, the busiest subtask still keeps up.
   */
  private static int aligned(
      Vertex v, VertexEstimate e, int p, Ds2Options o, List<Reason> reasons) {
    int max = v.maxParallelism();
    for (int d = p; d <= max; d++) {
      if (max % d == 0 && keepsUp(e, d, o)) {
        if (d != p) {
          reasons.add(
              new Reason(
                  ReasonCode.ALIGNED_TO_KEY_GROUPS,
                  "rounded " + p + " up to " + d + ", a divisor of max parallelism " + max));
        }
        return d;
      }
    }
    return p;
  }

  private static boolean keepsUp(VertexEstimate e, int p, Ds2Options o) {
    if (e.keySpread().isEmpty()
        || e.targetInputRate().isEmpty()
        || e.trueProcessingRatePerInstance().isEmpty()) {
      return true;
    }
    double capacity = e.trueProcessingRatePerInstance().getAsDouble() * o.targetUtilization();
    return KeyedSizing.size(
            e.keySpread().get().load(), e.targetInputRate().getAsDouble(), capacity, p, p)
        .feasible();
  }

  /**
   * A scale-up is held where, at the current parallelism, the busiest subtask would use no more
   * than {@code scale-up-tolerance} of the headroom the target keeps (1 - target): it keeps up, a
   * need that small is within the windows' noise (the headline's source's need moved at most 2-4 %
   * window to window at a steady load in 9 of 10 windows), while the step can be large where splits
   * or key groups spread unevenly (a source on 12 partitions at 6, 0.71 busy for 0.7, went to 12:
   * the next parallelism that relieves its busiest subtask). At a target of 1.0 there is no
   * headroom: never. Applied after activation, so that a held window still counts towards a later
   * scale-up's.
   *
   * @param target the utilization the estimate sized for (lowered after a capacity shortfall)
   * @return the reason it is held, or empty
   */
  static Optional<Reason> withinHeadroom(VertexEstimate v, int p, double target, Ds2Options o) {
    int current = v.currentParallelism();
    if (p <= current || o.scaleUpTolerance() == 0 || target >= 1) {
      return Optional.empty();
    }
    OptionalDouble need = busiestNeed(v, current, target);
    double limit = target + o.scaleUpTolerance() * (1 - target);
    if (need.isEmpty() || need.getAsDouble() * target > limit) {
      return Optional.empty();
    }
    return Optional.of(
        new Reason(
            ReasonCode.SCALE_UP_WITHIN_HEADROOM,
            String.format(
                Locale.ROOT,
                "wants %d; at %d its busiest subtask runs %.1f %% busy for a target of %.0f %%,"
                    + " within scale-up-tolerance %s of the headroom (up to %.1f %%): kept",
                p,
                current,
                100 * need.getAsDouble() * target,
                100 * target,
                o.scaleUpTolerance(),
                100 * limit)));
  }

  /**
   * Instances the busiest subtask needs at parallelism {@code p} (1: exactly at the target): by the
   * splits each subtask reads, by the key groups each owns, else the input spread evenly.
   */
  private static OptionalDouble busiestNeed(VertexEstimate v, int p, double target) {
    if (v.splitSpread().isPresent()) {
      return OptionalDouble.of(v.splitSpread().get().busiestAtCurrent());
    }
    if (v.keySpread().isPresent()) {
      if (v.targetInputRate().isEmpty() || v.trueProcessingRatePerInstance().isEmpty()) {
        return OptionalDouble.empty();
      }
      double capacity = v.trueProcessingRatePerInstance().getAsDouble() * target;
      double input = v.targetInputRate().getAsDouble();
      return OptionalDouble.of(
          KeyedSizing.size(v.keySpread().get().load(), input, capacity, p, p).busiestLoad()
              / capacity);
    }
    return v.requiredParallelism().isPresent()
        ? OptionalDouble.of(v.requiredParallelism().getAsDouble() / p)
        : OptionalDouble.empty();
  }

  private static int thresholded(int current, int p, Ds2Options o, List<Reason> reasons) {
    if (p < current && current - p < o.scaleDownThreshold() * current) {
      reasons.add(
          new Reason(
              ReasonCode.SCALE_DOWN_BELOW_THRESHOLD,
              "scale-down "
                  + current
                  + " -> "
                  + p
                  + " is below scale-down-threshold "
                  + o.scaleDownThreshold()));
      return current;
    }
    return p;
  }

  /** Whether any target differs from the vertex's current parallelism. */
  static boolean changed(List<Proposal> proposals, int[] targets) {
    for (int i = 0; i < targets.length; i++) {
      if (targets[i] != proposals.get(i).estimate().currentParallelism()) {
        return true;
      }
    }
    return false;
  }
}
