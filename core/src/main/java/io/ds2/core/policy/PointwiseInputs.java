package io.ds2.core.policy;

import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.KeySpread;
import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.ShipStrategy;
import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.Pointwise;
import io.ds2.core.options.Ds2Options;
import java.util.List;
import java.util.Locale;

/**
 * The last rule of a decision: a vertex reading a FORWARD or RESCALE edge is checked against the
 * parallelism its producer is actually going to run at, and raised to the smallest parallelism at
 * which its busiest subtask keeps up ({@link Pointwise}). It runs on the final targets, after
 * activation and delays, because what a consumer subtask takes depends on the producer's target,
 * not on the producer's recommendation: a Join going to 11 while its FORWARD-fed Sink stays at 5
 * leaves one Sink subtask three Join subtasks. It only raises, and only a vertex that would keep up
 * at its target were its input even (one held lower by its own activation or step limit is left to
 * those); the raise is not step-limited (the producer's step caused it) and applies at once, like
 * the producer's change. The consumer's capacity is DS2's (true rate at the estimate's target
 * utilization).
 */
final class PointwiseInputs {
  private PointwiseInputs() {}

  /**
   * Raises {@code targets} in place where a pointwise input needs it, noting why in {@code extra}.
   *
   * @param targets by position in the estimate (the graph's topological order)
   */
  static void raise(
      JobGraph graph, Estimate estimate, int[] targets, Reason[] extra, Ds2Options options) {
    List<VertexEstimate> vertices = estimate.vertices();
    List<Vertex> order = graph.topologicalOrder();
    if (order.size() != vertices.size()) {
      return; // not this graph's estimate: nothing is checked rather than the wrong vertices
    }
    // A pointwise consumer's split at its target, per position, for a pointwise chain below it
    // (null: even).
    double[][] split = new double[vertices.size()][];
    for (int i = 0; i < vertices.size(); i++) {
      VertexEstimate v = vertices.get(i);
      if (!v.vertexId().equals(order.get(i).id())) {
        return;
      }
      List<Edge> inputs = graph.inputsAt(i);
      if (v.source()
          || !v.determined()
          || inputs.size() != 1
          || !pointwise(inputs.get(0).strategy())
          || v.targetInputRate().isEmpty()
          || v.trueProcessingRatePerInstance().isEmpty()) {
        continue;
      }
      int u = graph.inputPosition(i, 0);
      int n = targets[u];
      double[] producers = split[u] != null ? split[u] : keyedSplit(vertices.get(u), n);
      double input = v.targetInputRate().getAsDouble();
      double capacity =
          v.trueProcessingRatePerInstance().getAsDouble() * estimate.targetUtilization();
      int p = targets[i];
      // Held below even DS2's bound by its own rules (activation, a step limit): those decide.
      if (input <= 0 || capacity <= 0 || input / p > capacity) {
        continue;
      }
      if (producers == null) {
        if (n % p == 0 || p % n == 0) {
          continue; // even producers over whole ranges: an even input, as DS2 sized it
        }
        producers = Pointwise.even(n);
      }
      int upper =
          Math.max(
              p,
              Math.min(
                  order.get(i).maxParallelism(),
                  options.maxParallelism().orElse(Integer.MAX_VALUE)));
      double[] shares = Pointwise.shares(producers, p);
      Pointwise.Busiest at = Pointwise.busiestOf(shares, n);
      int q = p;
      Pointwise.Busiest chosen = at;
      while (q < upper && !keepsUp(chosen, input, capacity)) {
        q++;
        shares = Pointwise.shares(producers, q);
        chosen = Pointwise.busiestOf(shares, n);
      }
      split[i] = shares;
      if (q > p) {
        targets[i] = q;
        extra[i] = reason(vertices.get(u).name(), n, p, at, q, chosen, input, capacity);
      }
    }
  }

  private static boolean pointwise(ShipStrategy s) {
    return s == ShipStrategy.FORWARD || s == ShipStrategy.RESCALE;
  }

  private static boolean keepsUp(Pointwise.Busiest b, double input, double capacity) {
    return b.share() * input <= capacity * (1 + 1e-9);
  }

  /** A keyed producer's output split at its target, by its estimated key spread; null if even. */
  private static double[] keyedSplit(VertexEstimate v, int target) {
    if (v.keySpread().isEmpty() || target > v.keySpread().get().maxParallelism()) {
      return null;
    }
    KeySpread s = v.keySpread().get();
    return Pointwise.producers(s.load(), target);
  }

  private static Reason reason(
      String producer,
      int n,
      int p,
      Pointwise.Busiest at,
      int q,
      Pointwise.Busiest chosen,
      double input,
      double capacity) {
    return new Reason(
        ReasonCode.POINTWISE_INPUT,
        String.format(
            Locale.ROOT,
            "reads %s (going to %d) pointwise: at %d subtask %d would read %s, %.1f %% of the"
                + " input (%.2f instances); at %d the busiest reads %s, %.1f %%%s",
            producer,
            n,
            p,
            at.subtask(),
            producers(at),
            100 * at.share(),
            at.share() * input / capacity,
            q,
            producers(chosen),
            100 * chosen.share(),
            keepsUp(chosen, input, capacity) ? "" : " (still more than one instance)"));
  }

  private static String producers(Pointwise.Busiest b) {
    return b.firstProducer() == b.lastProducer()
        ? "subtask " + b.firstProducer() + "'s output"
        : "subtasks " + b.firstProducer() + "-" + b.lastProducer();
  }
}
