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
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The policy step by step on a job Source -> Work (keyed, max parallelism 128), with a simulated
 * operator whose per-record cost is {@code costMs x (1 + alpha (p - 1))}.
 */
class ScalingPolicyTest {
  // Evenly spread input: these tests are about the policy, not key groups (but alignment's).
  private static final JobGraph GRAPH = graph("REBALANCE");
  private static final JobGraph KEYED = graph("HASH");
  // The time each decision is taken at; the policy is given it, it keeps no clock.
  private Instant now = Instant.parse("2026-01-01T00:00:00Z");

  private static JobGraph graph(String shipStrategy) {
    return JobGraph.of(
        List.of(new Vertex("s", "Source", 128), new Vertex("w", "Work", 128)),
        List.of(new Edge("s", "w", shipStrategy)));
  }

  private static Ds2Options options(String... kv) {
    Map<String, String> m = new HashMap<>();
    m.put("activation", "1");
    m.put("scale-down-delay", "0s");
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return Ds2Options.fromMap(m);
  }

  /** One 30 s window of Work at parallelism p processing what it can of {@code rate}. */
  private static Estimate window(double rate, double costMs, double alpha, int p, Ds2Options o) {
    return window(GRAPH, rate, costMs, alpha, p, o);
  }

  private static Estimate window(
      JobGraph graph, double rate, double costMs, double alpha, int p, Ds2Options o) {
    double cost = costMs / 1000 * (1 + alpha * (p - 1));
    double processed = Math.min(rate, p / cost) * 30;
    Observations obs =
        new Observations(30)
            .source("s", 1, processed)
            .operator("w", p, processed, processed, processed * cost * 1000);
    return obs.estimate(graph, "s", rate, o);
  }

  private Decision decide(ScalingPolicy policy, double rate, double costMs, double alpha, int p) {
    now = now.plus(Duration.ofSeconds(30));
    return policy.decide(GRAPH, window(rate, costMs, alpha, p, policy.options()), now);
  }

  private static int target(Decision d) {
    return ((Action.Rescale) d.action()).parallelism().get("w");
  }

  private static ReasonCode holdCode(Decision d) {
    return assertInstanceOf(Action.Hold.class, d.action()).reason().code();
  }

  private static List<ReasonCode> codes(Decision d) {
    return d.vertex("w").orElseThrow().reasons().stream().map(Reason::code).toList();
  }

  @Test
  void linearWorkloadConvergesInOneStepAndHolds() {
    ScalingPolicy policy = new ScalingPolicy(options());
    // 1000/s at 3.5 ms: 3.5 instances -> 4.
    Decision d = decide(policy, 1000, 3.5, 0, 1);
    assertEquals(4, target(d));
    assertEquals(Map.of("s", 1, "w", 4), ((Action.Rescale) d.action()).parallelism());
    policy.rescaleApplied();
    for (int i = 0; i < 3; i++) {
      assertEquals(ReasonCode.NO_CHANGE, holdCode(decide(policy, 1000, 3.5, 0, 4)));
    }
  }

  @Test
  void activationWaitsForAgreeingWindowsAndTakesTheSmallestChange() {
    ScalingPolicy policy = new ScalingPolicy(options("activation", "2"));
    Decision first = decide(policy, 1000, 3.5, 0, 1);
    assertEquals(ReasonCode.ACTIVATING, holdCode(first));
    assertTrue(codes(first).contains(ReasonCode.ACTIVATING));
    assertEquals(4, first.vertex("w").orElseThrow().recommended());
    // The windows asked for 4 and (now) 3: act on the smaller.
    assertEquals(3, target(decide(policy, 1000, 2.9, 0, 1)));
  }

  @Test
  void aTargetOtherThanThisWindowsRecommendationSaysWhy() {
    ScalingPolicy up = new ScalingPolicy(options("activation", "2"));
    decide(up, 1000, 2.9, 0, 1); // wants 3
    Decision d = decide(up, 1000, 3.5, 0, 1); // wants 4: the smaller, 3, is taken
    assertEquals(3, target(d));
    assertEquals(4, d.vertex("w").orElseThrow().recommended());
    assertTrue(codes(d).contains(ReasonCode.ACTIVATION_SMALLEST), codes(d).toString());
    ScalingPolicy down =
        new ScalingPolicy(options("scale-down-delay", "60s", "scale-down-threshold", "0"));
    decide(down, 1000, 4.5, 0, 8); // wants 5
    decide(down, 1000, 2.5, 0, 8); // wants 3
    decide(down, 1000, 2.5, 0, 8);
    Decision after = decide(down, 1000, 2.5, 0, 8); // the delay is over: the highest, 5
    assertEquals(5, target(after));
    assertEquals(3, after.vertex("w").orElseThrow().recommended());
    assertTrue(codes(after).contains(ReasonCode.SCALE_DOWN_TO_HIGHEST), codes(after).toString());
  }

  @Test
  void disagreeingDirectionsHold() {
    ScalingPolicy policy = new ScalingPolicy(options("activation", "2"));
    decide(policy, 1000, 5.5, 0, 4); // wants 6: up
    Decision d = decide(policy, 1000, 2.1, 0, 4); // wants 3: down
    assertEquals(ReasonCode.DIRECTION_UNSTABLE, holdCode(d));
  }

  @Test
  void scaleDownWaitsOutTheDelayAndGoesToTheHighestRecommendation() {
    ScalingPolicy policy =
        new ScalingPolicy(options("scale-down-delay", "60s", "scale-down-threshold", "0"));
    // At p = 8: 1000/s at 3.5 ms wants 4, then 4.5 ms wants 5, then 2.5 ms wants 3.
    assertEquals(ReasonCode.SCALE_DOWN_DELAYED, holdCode(decide(policy, 1000, 3.5, 0, 8)));
    assertEquals(ReasonCode.SCALE_DOWN_DELAYED, holdCode(decide(policy, 1000, 4.5, 0, 8)));
    Decision d = decide(policy, 1000, 2.5, 0, 8);
    assertEquals(5, target(d), "the highest recommendation of the delay period");
  }

  @Test
  void aRestoredPolicyContinuesThePendingScaleDownDelay() {
    Ds2Options o = options("scale-down-delay", "60s", "scale-down-threshold", "0");
    ScalingPolicy before = new ScalingPolicy(o);
    assertEquals(
        ReasonCode.SCALE_DOWN_DELAYED, holdCode(decide(before, 1000, 4.5, 0, 8))); // wants 5
    ScalingPolicy.State saved = before.state();
    // A new controller instance, 30 s later: the delay continues, it does not start over.
    ScalingPolicy after = new ScalingPolicy(o);
    after.restore(saved);
    assertEquals(ReasonCode.SCALE_DOWN_DELAYED, holdCode(decide(after, 1000, 3.5, 0, 8)));
    assertEquals(5, target(decide(after, 1000, 3.5, 0, 8)), "highest since before the restart");
  }

  @Test
  void aNeededScaleUpResetsAPendingScaleDown() {
    ScalingPolicy policy =
        new ScalingPolicy(options("scale-down-delay", "60s", "scale-down-threshold", "0"));
    decide(policy, 1000, 3.5, 0, 8); // down pending since t=30
    assertEquals(9, target(decide(policy, 1000, 8.5, 0, 8))); // up: acts, and resets
    policy.rescaleApplied();
    assertEquals(ReasonCode.SCALE_DOWN_DELAYED, holdCode(decide(policy, 1000, 3.5, 0, 9)));
    assertEquals(ReasonCode.SCALE_DOWN_DELAYED, holdCode(decide(policy, 1000, 3.5, 0, 9)));
  }

  @Test
  void smallScaleDownsAreIgnoredButSmallScaleUpsAreNot() {
    ScalingPolicy policy = new ScalingPolicy(options("scale-down-threshold", "0.2"));
    Decision d = decide(policy, 1000, 8.5, 0, 10); // wants 9 of 10: 10 % < 20 %
    assertEquals(ReasonCode.NO_CHANGE, holdCode(d));
    assertTrue(codes(d).contains(ReasonCode.SCALE_DOWN_BELOW_THRESHOLD));
    assertEquals(11, target(decide(policy, 1000, 10.5, 0, 10)));
  }

  @Test
  void stepLimitsCapOneRescale() {
    ScalingPolicy policy = new ScalingPolicy(options("max-step-up", "4", "max-step-down", "2"));
    Decision up = decide(policy, 1000, 29.5, 0, 1); // wants 30
    assertEquals(4, target(up));
    assertTrue(codes(up).contains(ReasonCode.STEP_LIMITED_UP));
    Decision down = decide(policy, 1000, 0.5, 0, 16); // wants 1
    assertEquals(8, target(down));
    assertTrue(codes(down).contains(ReasonCode.STEP_LIMITED_DOWN));
  }

  @Test
  void keyedVerticesAlignToDivisorsOfMaxParallelism() {
    ScalingPolicy policy = new ScalingPolicy(options("align-keyed", "true"));
    now = now.plus(Duration.ofSeconds(30));
    // Wants 5 (the busiest of 5 owns 26 of 128 even key groups: 4.5 x 26 / 128 = 0.91) -> 8.
    Decision d = policy.decide(KEYED, window(KEYED, 1000, 4.5, 0, 1, policy.options()), now);
    assertEquals(8, target(d));
    assertTrue(codes(d).contains(ReasonCode.ALIGNED_TO_KEY_GROUPS));
  }

  @Test
  void incompleteEstimateNeverRescales() {
    ScalingPolicy policy = new ScalingPolicy(options());
    Observations obs = new Observations(30).source("s", 1, 300).operator("w", 2, 0, 0, 0);
    now = now.plus(Duration.ofSeconds(30));
    Decision d = policy.decide(GRAPH, obs.estimate(GRAPH, "s", 1000, policy.options()), now);
    assertEquals(ReasonCode.ESTIMATE_INCOMPLETE, holdCode(d));
  }

  @Test
  void unmetRescaleBacksOffInsteadOfStorming() {
    ScalingPolicy policy = new ScalingPolicy(options("rescale-backoff", "2m"));
    assertEquals(4, target(decide(policy, 1000, 3.5, 0, 1)));
    policy.rescaleNotApplied(now);
    for (int i = 0; i < 3; i++) { // 30, 60, 90 s into the 120 s back-off
      assertEquals(ReasonCode.BACKING_OFF, holdCode(decide(policy, 1000, 3.5, 0, 1)));
    }
    assertEquals(4, target(decide(policy, 1000, 3.5, 0, 1)));
  }

  @Test
  void unmetRescalesInARowDoubleTheBackOffUpToItsCap() {
    ScalingPolicy policy = new ScalingPolicy(options("rescale-backoff", "1m"));
    long[] minutes = new long[6];
    for (int n = 0; n < minutes.length; n++) {
      policy.rescaleNotApplied(now);
      minutes[n] = Duration.between(now, policy.backoffUntil().orElseThrow()).toMinutes();
    }
    assertEquals(
        List.of(1L, 2L, 4L, 8L, 8L, 8L), java.util.Arrays.stream(minutes).boxed().toList());
    policy.rescaleApplied();
    policy.rescaleNotApplied(now);
    assertEquals(1, Duration.between(now, policy.backoffUntil().orElseThrow()).toMinutes());
  }

  @Test
  void aTargetIsCappedAtTheSlotsTheJobCanGetAndHeldThereSayingWhy() {
    ScalingPolicy policy = new ScalingPolicy(options());
    SlotCapacity three = SlotCapacity.of(3, "the cluster's 2 free slots and the 1 the job holds");
    now = now.plus(Duration.ofSeconds(30));
    // 1000/s at 3.5 ms wants 4.
    Decision d = policy.decide(GRAPH, window(1000, 3.5, 0, 1, policy.options()), three, now);
    assertEquals(3, target(d));
    assertTrue(codes(d).contains(ReasonCode.SLOT_LIMIT), codes(d).toString());
    assertTrue(
        d.vertex("w").orElseThrow().reasons().stream()
            .anyMatch(
                r ->
                    r.message()
                        .equals("wants 4; the job can get 3 slots (" + three.source() + ")")));
    policy.rescaleApplied();
    now = now.plus(Duration.ofSeconds(30));
    Decision held = policy.decide(GRAPH, window(1000, 3.5, 0, 3, policy.options()), three, now);
    assertEquals(ReasonCode.SLOT_LIMIT, holdCode(held));
    now = now.plus(Duration.ofSeconds(30));
    Decision unknown =
        policy.decide(
            GRAPH, window(1000, 3.5, 0, 3, policy.options()), SlotCapacity.unknown(), now);
    assertEquals(4, target(unknown), "with the slots unknown, no cap");
  }

  @Test
  void maxSlotsCapsLikeTheClustersSlotsAndTheSmallerFigureWins() {
    ScalingPolicy policy = new ScalingPolicy(options("max-slots", "2"));
    now = now.plus(Duration.ofSeconds(30));
    Decision d =
        policy.decide(
            GRAPH,
            window(1000, 3.5, 0, 1, policy.options()),
            SlotCapacity.of(3, "the cluster"),
            now);
    assertEquals(2, target(d));
    assertTrue(
        d.vertex("w").orElseThrow().reasons().stream()
            .anyMatch(r -> r.message().equals("wants 4; the job can get 2 slots (max-slots)")));
  }

  @Test
  void learnedCostCurveConvergesWherePlainDs2Creeps() {
    // 1000/s at 6 ms with cost +10 % per extra instance: the oracle is 14
    // (6 x 0.9 / (1 - 0.6) = 13.5). Plain DS2 would go 1 -> 6 -> 9 -> 11 -> 12 -> 13 -> 14.
    ScalingPolicy policy = new ScalingPolicy(options());
    assertEquals(6, target(decide(policy, 1000, 6, 0.1, 1)));
    policy.rescaleApplied();
    Decision second = decide(policy, 1000, 6, 0.1, 6);
    assertEquals(14, target(second));
    assertTrue(codes(second).contains(ReasonCode.EFFICIENCY_APPLIED), codes(second).toString());
    policy.rescaleApplied();
    assertEquals(ReasonCode.NO_CHANGE, holdCode(decide(policy, 1000, 6, 0.1, 14)));
  }

  @Test
  void noiseBelowTheToleranceKeepsPureDs2() {
    ScalingPolicy policy = new ScalingPolicy(options());
    assertEquals(4, target(decide(policy, 1000, 3.5, 0, 1)));
    policy.rescaleApplied();
    // 2 % costlier at p=4: within the 5 % tolerance, so no curve; DS2 keeps 4 (3.57).
    Decision d = decide(policy, 1000, 3.57, 0, 4);
    assertEquals(ReasonCode.NO_CHANGE, holdCode(d));
    assertTrue(!codes(d).contains(ReasonCode.EFFICIENCY_APPLIED));
  }

  /** A window in which the source's load went from {@code early} to {@code late} records/s. */
  private Decision decideShifted(ScalingPolicy policy, double early, double late) {
    now = now.plus(Duration.ofSeconds(30));
    double processed = (early + late) / 2 * 30;
    double cost = 0.01;
    Observations obs =
        new Observations(30)
            .source(
                "s",
                1,
                processed,
                0,
                java.util.Optional.of(
                    new io.ds2.core.window.Backlog(
                        0,
                        0,
                        (early + late) / 2,
                        12,
                        30,
                        java.util.OptionalDouble.of(early),
                        java.util.OptionalDouble.of(late))))
            .operator("w", 1, processed, processed, processed * cost * 1000);
    Estimate e =
        RateModel.estimate(
            GRAPH,
            obs.window(),
            Map.of("s", DemandEstimator.infer(obs.get("s"), java.util.Optional.empty())),
            policy.options());
    return policy.decide(GRAPH, e, now);
  }

  @Test
  void aWindowAcrossALoadChangeIsNotActedOnButTheNextIs() {
    ScalingPolicy policy = new ScalingPolicy(options());
    Decision straddling = decideShifted(policy, 400, 800);
    assertEquals(ReasonCode.DEMAND_SHIFTED, holdCode(straddling));
    assertTrue(
        ((Action.Hold) straddling.action())
            .reason()
            .message()
            .contains("the load of Source changed from 400.0 to 800.0 records/s"),
        straddling.toString());
    // The next window is steady at the new load: one step, straight to what 800/s needs (8).
    assertEquals(8, target(decide(policy, 800, 10, 0, 1)));
  }

  @Test
  void aSteadyRampIsFollowedEveryOtherWindow() {
    ScalingPolicy policy = new ScalingPolicy(options());
    assertEquals(ReasonCode.DEMAND_SHIFTED, holdCode(decideShifted(policy, 400, 500)));
    Decision next = decideShifted(policy, 500, 600);
    assertTrue(next.rescales(), next.toString());
  }

  @Test
  void halvesWithinTenPercentAreSteady() {
    ScalingPolicy policy = new ScalingPolicy(options());
    assertTrue(decideShifted(policy, 400, 430).rescales());
  }
}
