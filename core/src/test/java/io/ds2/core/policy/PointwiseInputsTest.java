package io.ds2.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.Observations;
import io.ds2.core.estimate.DemandEstimator;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.RateModel;
import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.window.SubtaskSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A vertex fed over a FORWARD edge is sized against the parallelism its producer goes to, with
 * Flink's pointwise connection; every number below is computed in the comments.
 */
class PointwiseInputsTest {
  private static final Ds2Options OPTIONS =
      Ds2Options.fromMap(Map.of("activation", "1", "scale-down-delay", "0s"));

  private static JobGraph graph(String into, String strategy) {
    return graph(into, strategy, Optional.empty());
  }

  /** With the Sink in slot-sharing group {@code sinkGroup}, the others in Flink's default. */
  private static JobGraph graph(String into, String strategy, Optional<String> sinkGroup) {
    return JobGraph.of(
        List.of(
            new Vertex("s", "Source", 128),
            new Vertex("j", "Join", 128),
            new Vertex("f", "Sink", 128, sinkGroup)),
        List.of(new Edge("s", "j", into), new Edge("j", "f", strategy)));
  }

  private static VertexDecisionView decide(JobGraph graph, Observations o, double rate) {
    Estimate e =
        RateModel.estimate(
            graph, o.window(), Map.of("s", DemandEstimator.explicit(o.get("s"), rate)), OPTIONS);
    Decision d = new ScalingPolicy(OPTIONS).decide(graph, e, java.time.Instant.EPOCH);
    return new VertexDecisionView(d);
  }

  private record VertexDecisionView(Decision d) {
    int target(String id) {
      return d.vertex(id).orElseThrow().target();
    }

    List<ReasonCode> codes(String id) {
      return d.vertex(id).orElseThrow().reasons().stream().map(Reason::code).toList();
    }

    String message(String id, ReasonCode code) {
      return d.vertex(id).orElseThrow().reasons().stream()
          .filter(r -> r.code() == code)
          .findFirst()
          .orElseThrow()
          .message();
    }
  }

  /** 10 s of Join at 8 (10 ms a record) and Sink at 5 (4.4 ms) taking 800/s of 1,050/s. */
  private static Observations joinAtEightSinkAtFive() {
    return new Observations(10)
        .source("s", 2, 10_500)
        .operator("j", 8, 8_000, 8_000, 80_000)
        .operator("f", 5, 8_000, 8_000, 35_200);
  }

  @Test
  void aSinkReadingElevenJoinSubtasksIsRaisedUntilItsBusiestSubtaskKeepsUp() {
    // 1,050/s over 10 s. Join at 10 ms a record needs 10.5 instances: it goes from 8 to 11. The
    // Sink at 4.4 ms (227.3/s an instance) needs 4.62: DS2 says 5. At 11 -> 5 Sink subtask 4 reads
    // Join subtasks 8-10, 3/11 of the input (286.4/s, 1.26 instances); at 6 the busiest reads two
    // of them, 2/11 (190.9/s): 6.
    VertexDecisionView v = decide(graph("REBALANCE", "FORWARD"), joinAtEightSinkAtFive(), 1050);
    assertInstanceOf(Action.Rescale.class, v.d().action());
    assertEquals(11, v.target("j"));
    assertEquals(6, v.target("f"));
    assertEquals(5, v.d().vertex("f").orElseThrow().recommended(), "DS2's even bound");
    assertTrue(v.codes("f").contains(ReasonCode.POINTWISE_INPUT), v.codes("f").toString());
    String why = v.message("f", ReasonCode.POINTWISE_INPUT);
    assertTrue(why.contains("at 5 subtask 4 would read subtasks 8-10, 27.3 %"), why);
  }

  @Test
  void itJoinsARescaleButNeverStartsOne() {
    // The same job already at Join 11 and Sink 5, every vertex at DS2's figure: the Sink's
    // imbalance waits for the next rescale instead of costing one of its own.
    Observations o =
        new Observations(10)
            .source("s", 2, 10_500)
            .operator("j", 11, 10_500, 10_500, 105_000)
            .operator("f", 5, 10_500, 10_500, 46_200);
    VertexDecisionView v = decide(graph("REBALANCE", "FORWARD"), o, 1050);
    assertInstanceOf(Action.Hold.class, v.d().action());
    assertEquals(5, v.target("f"));
  }

  @Test
  void aScaleDownThePointwiseRuleTakesBackIsNoRescale() {
    // Join at 5 takes 450/s at 10 ms (4.5 instances): it stays. The Sink at 3, 4 ms a record (250/s
    // an instance), needs 1.8: DS2 says 2, but at 5 -> 2 Sink subtask 1 would read Join 2-4, 60 %
    // (270/s, 1.08 instances); at 3 the busiest reads 40 %. Back at 3: nothing changes, no rescale.
    Observations o =
        new Observations(10)
            .source("s", 2, 4_500)
            .operator("j", 5, 4_500, 4_500, 45_000)
            .operator("f", 3, 4_500, 4_500, 18_000);
    VertexDecisionView v = decide(graph("REBALANCE", "FORWARD"), o, 450);
    assertEquals(2, v.d().vertex("f").orElseThrow().recommended());
    assertEquals(3, v.target("f"));
    assertEquals(5, v.target("j"));
    assertInstanceOf(Action.Hold.class, v.d().action());
  }

  @Test
  void aRebalancedInputIsLeftAtDs2sBound() {
    VertexDecisionView v = decide(graph("REBALANCE", "REBALANCE"), joinAtEightSinkAtFive(), 1050);
    assertEquals(11, v.target("j"));
    assertEquals(5, v.target("f"));
    assertTrue(!v.codes("f").contains(ReasonCode.POINTWISE_INPUT), v.codes("f").toString());
  }

  @Test
  void aScaleDownBelowAKeyedProducerIsCheckedAgainstItsMeasuredSubtasks() {
    // Join keyed at 8, 450/s at 10 ms (100/s an instance): its subtasks took 20 %, 15 % and
    // 10.83 % each of the rest (90/s at most): it stays at 8. The Sink at 8 ms (125/s an
    // instance) needs 3.6, DS2 says 4: at 8 -> 4 Sink subtask 0 reads Join 0-1, 35 % (157.5/s);
    // at 5 it reads Join 0 alone and subtask 1 reads Join 1-2, 25.8 % (116.3/s): 5.
    // The Sink has a slot-sharing group of its own, so lowering it alone frees slots (16 -> 13).
    double[] shares = {0.20, 0.15, 0.65 / 6, 0.65 / 6, 0.65 / 6, 0.65 / 6, 0.65 / 6, 0.65 / 6};
    List<SubtaskSample> join = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      double took = shares[i] * 4_500;
      join.add(SubtaskSample.of(i, took, took, took * 10, 10_000 - took * 10, 0));
    }
    Observations o =
        new Observations(10)
            .source("s", 2, 4_500)
            .operator("j", join)
            .operator("f", 8, 4_500, 4_500, 36_000);
    VertexDecisionView v = decide(graph("HASH", "FORWARD", Optional.of("sinks")), o, 450);
    assertEquals(8, v.target("j"));
    assertEquals(4, v.d().vertex("f").orElseThrow().recommended());
    assertEquals(5, v.target("f"));
    assertInstanceOf(Action.Rescale.class, v.d().action());
    String why = v.message("f", ReasonCode.POINTWISE_INPUT);
    assertTrue(why.contains("at 4 subtask 0 would read subtasks 0-1, 35.0 %"), why);
  }
}
