package io.ds2.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.graph.JobGraph;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A scale-down that frees no slot waits for a rescale the job needs, on Source -> A -> B at 1,000
 * records/s (a vertex wants as many instances as its cost in ms), A lower from t = 30 and due at t
 * = 90 (60 s delay), B at 10: under slot sharing the job holds 10 slots with A at 8 or at 4.
 */
class SlotSavingTest {
  private Instant now = Instant.parse("2026-01-01T00:00:00Z");

  private static JobGraph graph(Optional<String> groupOfA) {
    return TwoStageWindows.graph(groupOfA);
  }

  private static ScalingPolicy policy() {
    return TwoStageWindows.policy("60s");
  }

  /** One 30 s window: A at {@code pa} costing {@code costA} ms a record, B likewise. */
  private Decision decide(
      ScalingPolicy policy,
      JobGraph graph,
      SlotCapacity slots,
      double costA,
      int pa,
      double costB,
      int pb) {
    now = now.plus(Duration.ofSeconds(30));
    return policy.decide(
        graph, TwoStageWindows.window(graph, policy.options(), costA, pa, costB, pb), slots, now);
  }

  private Decision decide(ScalingPolicy policy, double costA, int pa, double costB, int pb) {
    return decide(policy, graph(Optional.empty()), SlotCapacity.unknown(), costA, pa, costB, pb);
  }

  private static List<ReasonCode> codes(Decision d, String vertex) {
    return d.vertex(vertex).orElseThrow().reasons().stream().map(Reason::code).toList();
  }

  private static ReasonCode holdCode(Decision d) {
    return assertInstanceOf(Action.Hold.class, d.action()).reason().code();
  }

  @Test
  void aScaleDownThatFreesNoSlotWaitsForTheNextRescaleTheJobNeeds() {
    ScalingPolicy policy = policy();
    decide(policy, 3.5, 8, 9.5, 10); // t = 30: A wants 4
    assertEquals(ReasonCode.SCALE_DOWN_DELAYED, holdCode(decide(policy, 3.5, 8, 9.5, 10)));
    for (int i = 0; i < 2; i++) { // t = 90, 120: due, but B keeps the job at 10 slots
      Decision held = decide(policy, 3.5, 8, 9.5, 10);
      assertEquals(ReasonCode.NO_SLOT_FREED, holdCode(held));
      assertEquals(8, held.vertex("a").orElseThrow().target());
      assertTrue(codes(held, "a").contains(ReasonCode.NO_SLOT_FREED), codes(held, "a").toString());
    }
    // t = 150: B wants 12; A's scale-down goes with it, one restart for both.
    Decision up = decide(policy, 3.5, 8, 11.5, 10);
    assertEquals(Map.of("s", 1, "a", 4, "b", 12), assertRescale(up));
  }

  @Test
  void aScaleDownOfTheLargestVertexIsMadeAlone() {
    ScalingPolicy policy = policy();
    decide(policy, 3.5, 8, 5.5, 6); // t = 30: A wants 4, B at 6: 8 slots -> 6
    decide(policy, 3.5, 8, 5.5, 6);
    assertEquals(Map.of("s", 1, "a", 4, "b", 6), assertRescale(decide(policy, 3.5, 8, 5.5, 6)));
  }

  @Test
  void aScaleDownInASlotSharingGroupOfItsOwnFreesItsSlots() {
    ScalingPolicy policy = policy();
    JobGraph graph = graph(Optional.of("a-group")); // 8 + 10 slots -> 4 + 10
    SlotCapacity unknown = SlotCapacity.unknown();
    decide(policy, graph, unknown, 3.5, 8, 9.5, 10);
    decide(policy, graph, unknown, 3.5, 8, 9.5, 10);
    assertEquals(
        Map.of("s", 1, "a", 4, "b", 10),
        assertRescale(decide(policy, graph, unknown, 3.5, 8, 9.5, 10)));
  }

  @Test
  void aDueScaleDownDoesNotJoinARescaleTheSlotsTookBack() {
    ScalingPolicy policy = policy();
    SlotCapacity ten = SlotCapacity.of(10, "the cluster's 10 slots");
    JobGraph graph = graph(Optional.empty());
    decide(policy, graph, ten, 3.5, 8, 9.5, 10); // t = 30: A wants 4, due at t = 90
    // t = 60: B wants 12, capped at 10: no rescale, so A's scale-down has none to join.
    Decision capped = decide(policy, graph, ten, 3.5, 8, 11.5, 10);
    assertEquals(ReasonCode.SLOT_LIMIT, holdCode(capped));
    assertEquals(8, capped.vertex("a").orElseThrow().target());
    assertTrue(
        codes(capped, "a").contains(ReasonCode.SCALE_DOWN_DELAYED), codes(capped, "a").toString());
    // t = 90: A due, B still capped: the job holds 10 slots either way.
    Decision due = decide(policy, graph, ten, 3.5, 8, 11.5, 10);
    assertEquals(8, due.vertex("a").orElseThrow().target());
    assertTrue(codes(due, "a").contains(ReasonCode.NO_SLOT_FREED), codes(due, "a").toString());
  }

  private static Map<String, Integer> assertRescale(Decision d) {
    return assertInstanceOf(Action.Rescale.class, d.action()).parallelism();
  }
}
