package io.ds2.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.graph.JobGraph;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The cap at the slots the job can get counts what the job holds per slot-sharing group: on Source
 * -> A -> B at 1,000 records/s (a vertex wants as many instances as its cost in ms), A in a group
 * of its own, the job needs A's slots plus those of the default group (B, the Source).
 */
class SlotLimitTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:30Z");
  private static final SlotCapacity SIXTEEN = SlotCapacity.of(16, "the cluster's 16 slots");

  private static Decision decide(
      JobGraph graph, SlotCapacity slots, double costA, int pa, double costB, int pb) {
    ScalingPolicy policy = TwoStageWindows.policy("60s");
    return policy.decide(
        graph, TwoStageWindows.window(graph, policy.options(), costA, pa, costB, pb), slots, NOW);
  }

  private static List<ReasonCode> codes(Decision d, String vertex) {
    return d.vertex(vertex).orElseThrow().reasons().stream().map(Reason::code).toList();
  }

  private static Map<String, Integer> rescale(Decision d) {
    return assertInstanceOf(Action.Rescale.class, d.action()).parallelism();
  }

  @Test
  void twoGroupsShareTheSlotsUnderOneCap() {
    // A wants 12, B 10: 22 slots in two groups, 16 to be had; capped at 8 each, the job needs 16.
    Decision d = decide(TwoStageWindows.graph(Optional.of("a-group")), SIXTEEN, 11.5, 4, 9.5, 8);
    assertEquals(Map.of("s", 1, "a", 8, "b", 8), rescale(d));
    assertTrue(codes(d, "a").contains(ReasonCode.SLOT_LIMIT), codes(d, "a").toString());
    assertTrue(codes(d, "b").contains(ReasonCode.SLOT_LIMIT), codes(d, "b").toString());
    String why = TwoStageWindows.message(d, "a", ReasonCode.SLOT_LIMIT);
    assertTrue(why.contains("2 slot-sharing groups: each vertex at most 8"), why);
  }

  @Test
  void aSmallGroupKeepsWhatItWantsAndTheLargeOneTakesTheRest() {
    // A wants 3 in its own group, B 20: B gets the 13 slots A leaves.
    Decision d = decide(TwoStageWindows.graph(Optional.of("a-group")), SIXTEEN, 2.5, 2, 19.5, 8);
    assertEquals(Map.of("s", 1, "a", 3, "b", 13), rescale(d));
    assertTrue(!codes(d, "a").contains(ReasonCode.SLOT_LIMIT), codes(d, "a").toString());
    assertTrue(codes(d, "b").contains(ReasonCode.SLOT_LIMIT), codes(d, "b").toString());
  }

  @Test
  void inOneGroupEveryVertexMayUseAllTheSlots() {
    // The same wants in Flink's default group: the job holds its largest vertex, 16 fit both.
    Decision d = decide(TwoStageWindows.graph(Optional.empty()), SIXTEEN, 11.5, 4, 9.5, 8);
    assertEquals(Map.of("s", 1, "a", 12, "b", 10), rescale(d));
    Decision capped = decide(TwoStageWindows.graph(Optional.empty()), SIXTEEN, 2.5, 2, 19.5, 8);
    assertEquals(Map.of("s", 1, "a", 3, "b", 16), rescale(capped));
  }
}
