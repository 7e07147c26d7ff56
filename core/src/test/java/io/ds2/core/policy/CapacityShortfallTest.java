package io.ds2.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.Observations;
import io.ds2.core.estimate.DemandEstimator;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.RateModel;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.window.Backlog;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A job that falls behind although DS2 says it is sized, as the fan-in job did on Kafka: Source ->
 * Work (rebalance) at 3, every Work subtask {@code busy} busy, the source back-pressured {@code bp}
 * and emitting 372 of the 400 records/s arriving.
 */
class CapacityShortfallTest {
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source", 128), new Vertex("w", "Work", 128)),
          List.of(new Edge("s", "w", "REBALANCE")));
  private static final double SECONDS = 30;
  // The time each decision is taken at; the policy is given it, it keeps no clock.
  private Instant now = Instant.parse("2026-01-01T00:00:00Z");

  private static Ds2Options options(String target) {
    return options(target, "1");
  }

  private static Ds2Options options(String target, String minParallelism) {
    return Ds2Options.fromMap(
        Map.of(
            "activation",
            "1",
            "scale-down-delay",
            "0s",
            "target-utilization",
            target,
            "min-parallelism",
            minParallelism,
            "capacity-shortfall",
            "true"));
  }

  private static Estimate window(DecisionPolicy policy, double emitted, double bp, double busy) {
    double records = emitted * SECONDS;
    Observations obs =
        new Observations(SECONDS)
            .source(
                "s",
                1,
                records,
                bp * SECONDS * 1000,
                Optional.of(new Backlog(5000, 400 - emitted, 400, 30, SECONDS)))
            .operator("w", 3, records, records, 3 * busy * SECONDS * 1000);
    return RateModel.estimate(
        GRAPH,
        obs.window(),
        Map.of("s", DemandEstimator.infer(obs.get("s"), Optional.empty())),
        policy.estimateOptions());
  }

  private static ReasonCode holdCode(Decision d) {
    return assertInstanceOf(Action.Hold.class, d.action()).reason().code();
  }

  @Test
  void offUnlessAskedForTheSameWindowsAreLeftToTheEstimate() {
    Ds2Options o = options("1.0").with(Map.of("capacity-shortfall", "false"));
    assertEquals(false, Ds2Options.defaults().capacityShortfall());
    ScalingPolicy policy = new ScalingPolicy(o);
    for (int i = 0; i < CapacityShortfall.CONFIRM_WINDOWS + 1; i++) {
      Decision d = policy.decide(GRAPH, window(policy, 372, 0.99, 0.84), now);
      assertEquals(ReasonCode.NO_CHANGE, holdCode(d));
      now = now.plus(java.time.Duration.ofSeconds(30));
    }
    assertEquals(1.0, policy.estimateOptions().targetUtilization(), 1e-9);
  }

  @Test
  void aJobBehindWithNoSubtaskSaturatedIsSizedForTheBusyRatioItFellBehindAt() {
    ScalingPolicy policy = new ScalingPolicy(options("1.0"));
    // Work's true rate 372 / 0.84 = 443 records/s for 3 instances: DS2 says 400 needs 2.71 -> 3.
    Decision first = policy.decide(GRAPH, window(policy, 372, 0.99, 0.84), now);
    assertEquals(ReasonCode.CAPACITY_SHORTFALL, holdCode(first));
    String why = ((Action.Hold) first.action()).reason().message();
    assertTrue(why.contains("Source emits 372.0 of 400.0 records/s"), why);
    assertTrue(why.contains("Work subtask 0, is 84 % busy"), why);
    assertTrue(why.contains("1 of the last 3 windows"), why);
    assertEquals(1.0, policy.estimateOptions().targetUtilization(), 1e-9); // not yet: one window
    now = now.plus(java.time.Duration.ofSeconds(30));
    Decision confirmed = policy.decide(GRAPH, window(policy, 372, 0.99, 0.84), now);
    assertEquals(ReasonCode.CAPACITY_SHORTFALL, holdCode(confirmed));
    assertTrue(
        ((Action.Hold) confirmed.action()).reason().message().contains("sizing for 0.79"),
        confirmed.toString());
    assertEquals(0.79, policy.estimateOptions().targetUtilization(), 1e-9);
    assertEquals(1.0, policy.options().targetUtilization(), 1e-9); // what was configured
    // The next window is sized for 0.79: 400 / (147.6 x 0.79) = 3.43 -> 4.
    now = now.plus(java.time.Duration.ofSeconds(30));
    Decision next = policy.decide(GRAPH, window(policy, 372, 0.99, 0.84), now);
    Action.Rescale r = assertInstanceOf(Action.Rescale.class, next.action());
    assertEquals(4, r.parallelism().get("w"));
    // Kept after the rescale: at 4 the job keeps up at 0.63 busy and is not scaled back to 3.
    policy.rescaleApplied();
    now = now.plus(java.time.Duration.ofSeconds(30));
    Decision after = policy.decide(GRAPH, window(policy, 400, 0.0, 0.68), now);
    assertEquals(ReasonCode.NO_CHANGE, holdCode(after));
    assertEquals(0.79, policy.estimateOptions().targetUtilization(), 1e-9);
  }

  @Test
  void oneWindowShortInThreeTeachesNothingTwoDo() {
    ScalingPolicy policy = new ScalingPolicy(options("1.0"));
    assertEquals(
        ReasonCode.CAPACITY_SHORTFALL,
        holdCode(policy.decide(GRAPH, window(policy, 372, 0.99, 0.84), now)));
    assertEquals(
        ReasonCode.NO_CHANGE, holdCode(policy.decide(GRAPH, window(policy, 400, 0.6, 0.84), now)));
    assertEquals(
        ReasonCode.NO_CHANGE, holdCode(policy.decide(GRAPH, window(policy, 400, 0.6, 0.84), now)));
    assertEquals(
        ReasonCode.CAPACITY_SHORTFALL,
        holdCode(policy.decide(GRAPH, window(policy, 372, 0.99, 0.84), now)));
    assertEquals(1.0, policy.estimateOptions().targetUtilization(), 1e-9); // 1 of the last 3
    // A marginal job, short every other window: the second short window of three confirms it.
    assertEquals(
        ReasonCode.NO_CHANGE, holdCode(policy.decide(GRAPH, window(policy, 400, 0.6, 0.84), now)));
    assertEquals(
        ReasonCode.CAPACITY_SHORTFALL,
        holdCode(policy.decide(GRAPH, window(policy, 372, 0.99, 0.84), now)));
    assertEquals(0.79, policy.estimateOptions().targetUtilization(), 1e-9);
  }

  @Test
  void aSourceNotHeldBackOrAJobKeepingUpTeachesNothing() {
    ScalingPolicy policy = new ScalingPolicy(options("1.0"));
    // Behind but hardly back-pressured: the source itself is short (not the job downstream).
    assertEquals(
        ReasonCode.NO_CHANGE, holdCode(policy.decide(GRAPH, window(policy, 372, 0.2, 0.84), now)));
    // Back-pressured but emitting 99 % of what arrives: keeping up.
    assertEquals(
        ReasonCode.NO_CHANGE, holdCode(policy.decide(GRAPH, window(policy, 396, 0.9, 0.84), now)));
    assertEquals(1.0, policy.estimateOptions().targetUtilization(), 1e-9);
  }

  @Test
  void aSaturatedSubtaskExplainsTheShortfallAndTeachesNothing() {
    // Work at 3, every subtask 97 % busy, emitting 390 of 400/s: DS2 says 2.98 -> 3 will do.
    // The shortfall is the saturated subtasks', not busy time overstating capacity.
    ScalingPolicy policy = new ScalingPolicy(options("1.0"));
    for (int i = 0; i < 3; i++) {
      assertEquals(
          ReasonCode.NO_CHANGE,
          holdCode(policy.decide(GRAPH, window(policy, 390, 0.99, 0.97), now)));
    }
    assertEquals(1.0, policy.estimateOptions().targetUtilization(), 1e-9);
  }

  @Test
  void neverBelowHalfUtilizationAndNeverAboveTheTarget() {
    // Behind with every subtask 30 % busy (held at 3 by min-parallelism): not a capacity the
    // policy can believe in below 0.5.
    ScalingPolicy policy = new ScalingPolicy(options("1.0", "3"));
    for (int i = 0; i < CapacityShortfall.CONFIRM_WINDOWS; i++) {
      assertEquals(
          ReasonCode.CAPACITY_SHORTFALL,
          holdCode(policy.decide(GRAPH, window(policy, 372, 0.99, 0.3), now)));
    }
    assertEquals(0.5, policy.estimateOptions().targetUtilization(), 1e-9);
    // At target 0.8, a job behind at 0.84 busy is one the estimate already scales: no shortfall.
    ScalingPolicy hot = new ScalingPolicy(options("0.8"));
    Decision d = hot.decide(GRAPH, window(hot, 372, 0.99, 0.84), now);
    assertInstanceOf(Action.Rescale.class, d.action());
    assertEquals(0.8, hot.estimateOptions().targetUtilization(), 1e-9);
  }
}
