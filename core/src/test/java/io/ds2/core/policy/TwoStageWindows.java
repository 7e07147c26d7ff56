package io.ds2.core.policy;

import io.ds2.core.Observations;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Source -> A -> B at 1,000 records/s, one 30 s window at a time (a vertex wants as many instances
 * as its cost in ms), for the tests of pending scale-downs.
 */
final class TwoStageWindows {
  static final JobGraph GRAPH = graph(Optional.empty());

  private TwoStageWindows() {}

  /** With A in slot-sharing group {@code groupOfA}, the others in Flink's default. */
  static JobGraph graph(Optional<String> groupOfA) {
    return JobGraph.of(
        List.of(
            new Vertex("s", "Source", 128),
            new Vertex("a", "A", 128, groupOfA),
            new Vertex("b", "B", 128)),
        List.of(new Edge("s", "a", "REBALANCE"), new Edge("a", "b", "REBALANCE")));
  }

  /** Decides on every window, lowers by any amount, after {@code delay}. */
  static ScalingPolicy policy(String delay) {
    return new ScalingPolicy(
        Ds2Options.fromMap(
            Map.of(
                "activation", "1",
                "window", "30s",
                "scale-down-delay", delay,
                "scale-down-threshold", "0")));
  }

  /** One window's estimate: A at {@code pa} costing {@code costA} ms a record, B likewise. */
  static Estimate window(
      JobGraph graph, Ds2Options options, double costA, int pa, double costB, int pb) {
    double records = 1000 * 30;
    Observations obs =
        new Observations(30)
            .source("s", 1, records)
            .operator("a", pa, records, records, records * costA)
            .operator("b", pb, records, records, records * costB);
    return obs.estimate(graph, "s", 1000, options);
  }

  /** The message of the reason {@code code} that {@code vertex} gives in {@code d}. */
  static String message(Decision d, String vertex, ReasonCode code) {
    return d.vertex(vertex).orElseThrow().reasons().stream()
        .filter(r -> r.code() == code)
        .findFirst()
        .orElseThrow()
        .message();
  }
}
