package io.ds2.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.Observations;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A scale-down where a forecast acts: it still waits out the whole delay of lower windows, and then
 * goes to the highest of the last activation windows' recommendations instead of the highest since
 * the need fell (the forecast raises the estimate a lead time before a return it foresees). On
 * Source -> Work at 1,000 records/s, Work at 8: it wants as many instances as its cost in ms.
 */
class ScaleDownWithForecastTest {
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source", 128), new Vertex("w", "Work", 128)),
          List.of(new Edge("s", "w", "REBALANCE")));
  private static final Optional<Duration> LEAD = Optional.of(Duration.ofSeconds(112));
  private Instant now = Instant.parse("2026-01-01T00:00:00Z");

  private static ScalingPolicy policy() {
    return new ScalingPolicy(
        Ds2Options.fromMap(
            Map.of(
                "activation", "2",
                "window", "30s",
                "scale-down-delay", "60s",
                "scale-down-threshold", "0")));
  }

  /** One 30 s window, Work at 8 costing {@code costMs} a record; decided with {@code lead}. */
  private Decision decide(ScalingPolicy policy, double costMs, Optional<Duration> lead) {
    now = now.plus(Duration.ofSeconds(30));
    double records = 1000 * 30;
    Estimate e =
        new Observations(30)
            .source("s", 1, records)
            .operator("w", 8, records, records, records * costMs)
            .estimate(GRAPH, "s", 1000, policy.options());
    return policy.decide(GRAPH, e, SlotCapacity.unknown(), lead, now);
  }

  /** Work's need falls from 5 to 4 over five windows; what the last one decides. */
  private Decision fallingNeed(Optional<Duration> lead, List<Decision> holds) {
    ScalingPolicy policy = policy();
    holds.add(decide(policy, 4.5, lead)); // t = 30: 5, one window of two
    holds.add(decide(policy, 4.5, lead)); // t = 60: lower since now, due at 120
    holds.add(decide(policy, 3.5, lead)); // t = 90: 4
    return decide(policy, 3.5, lead); // t = 120: due
  }

  @Test
  void withoutAForecastTheScaleDownGoesToTheHighestSinceTheNeedFell() {
    Decision d = fallingNeed(Optional.empty(), new ArrayList<>());
    assertEquals(5, target(d));
    assertTrue(codes(d).contains(ReasonCode.SCALE_DOWN_TO_HIGHEST), codes(d).toString());
  }

  @Test
  void whereAForecastActsItGoesToTheHighestOfTheLastWindowsAfterTheSameDelay() {
    List<Decision> holds = new ArrayList<>();
    Decision d = fallingNeed(LEAD, holds);
    assertEquals(4, target(d));
    assertTrue(codes(d).contains(ReasonCode.SCALE_DOWN_TO_LATEST), codes(d).toString());
    String why = reason(d, ReasonCode.SCALE_DOWN_TO_LATEST);
    assertTrue(why.contains("a forecast looked 112 s ahead"), why);
    assertTrue(why.contains("the last 2 windows, 4, not the highest since then, 5"), why);
    // The forecast shortens no delay: every window before it ends held.
    assertEquals(ReasonCode.ACTIVATING, holdCode(holds.get(0)));
    assertEquals(ReasonCode.SCALE_DOWN_DELAYED, holdCode(holds.get(1)));
    assertEquals(ReasonCode.SCALE_DOWN_DELAYED, holdCode(holds.get(2)));
  }

  @Test
  void aScaleDownJoiningAnotherVertexsRescaleGoesToTheLatestToo() {
    for (var lead : List.of(Optional.<Duration>empty(), LEAD)) {
      ScalingPolicy policy = TwoStageWindows.policy("60s");
      joined(policy, 4.5, 7.5, lead); // t = 30: A wants 5 at 8, due at 90; B stays at 8
      Decision d = joined(policy, 3.5, 9.5, lead); // t = 60: A wants 4, B wants 10
      Map<String, Integer> p = assertInstanceOf(Action.Rescale.class, d.action()).parallelism();
      assertEquals(lead.isPresent() ? 4 : 5, p.get("a"), "with a forecast: " + lead.isPresent());
      assertEquals(10, p.get("b"));
    }
  }

  private Decision joined(
      ScalingPolicy policy, double costA, double costB, Optional<Duration> lead) {
    now = now.plus(Duration.ofSeconds(30));
    Estimate e =
        TwoStageWindows.window(TwoStageWindows.GRAPH, policy.options(), costA, 8, costB, 8);
    return policy.decide(TwoStageWindows.GRAPH, e, SlotCapacity.unknown(), lead, now);
  }

  private static int target(Decision d) {
    return assertInstanceOf(Action.Rescale.class, d.action()).parallelism().get("w");
  }

  private static ReasonCode holdCode(Decision d) {
    return assertInstanceOf(Action.Hold.class, d.action()).reason().code();
  }

  private static List<ReasonCode> codes(Decision d) {
    return d.vertex("w").orElseThrow().reasons().stream().map(Reason::code).toList();
  }

  private static String reason(Decision d, ReasonCode code) {
    return d.vertex("w").orElseThrow().reasons().stream()
        .filter(r -> r.code() == code)
        .findFirst()
        .orElseThrow()
        .message();
  }
}
