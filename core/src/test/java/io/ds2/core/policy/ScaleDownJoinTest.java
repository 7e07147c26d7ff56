package io.ds2.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pending scale-down of one vertex and a rescale of another, on Source -> A -> B at 1,000
 * records/s (a vertex wants as many instances as its cost in ms): a scale-down due before its
 * vertex could act again on its own (a warm-up and the activation windows after the restart) joins
 * the rescale; one due later keeps its start across the restart it did not cause. Where A's
 * scale-down is made alone, B stays below it, so that it frees slots ({@link SlotSavingTest}).
 */
class ScaleDownJoinTest {
  private Instant now = Instant.parse("2026-01-01T00:00:00Z");

  private static ScalingPolicy policy(String delay) {
    return TwoStageWindows.policy(delay);
  }

  /** One 30 s window: A at {@code pa} costing {@code costA} ms a record, B likewise. */
  private Decision decide(ScalingPolicy policy, double costA, int pa, double costB, int pb) {
    now = now.plus(Duration.ofSeconds(30));
    return policy.decide(
        TwoStageWindows.GRAPH,
        TwoStageWindows.window(TwoStageWindows.GRAPH, policy.options(), costA, pa, costB, pb),
        now);
  }

  private static Map<String, Integer> rescale(Decision d) {
    return assertInstanceOf(Action.Rescale.class, d.action()).parallelism();
  }

  private static List<ReasonCode> codes(Decision d, String vertex) {
    return d.vertex(vertex).orElseThrow().reasons().stream().map(Reason::code).toList();
  }

  @Test
  void aScaleDownDueWithinAWindowJoinsARescaleOfAnotherVertex() {
    ScalingPolicy policy = policy("60s");
    decide(policy, 3.5, 8, 7.5, 8); // A wants 4 from t = 30: due at t = 90
    Decision d = decide(policy, 3.5, 8, 9.5, 8); // t = 60: B wants 10
    assertEquals(Map.of("s", 1, "a", 4, "b", 10), rescale(d));
    assertTrue(codes(d, "a").contains(ReasonCode.SCALE_DOWN_JOINED), codes(d, "a").toString());
  }

  @Test
  void aScaleDownDueBeforeItsVertexCouldActAloneAfterTheRestartJoins() {
    // The restart starts A's windows afresh: it could act alone a warm-up (30 s) and a window
    // (activation 1) after it at the earliest, at t = 150, when its delay has ended.
    ScalingPolicy policy = policy("120s");
    decide(policy, 3.5, 8, 1.5, 2); // A wants 4 from t = 30: due at t = 150
    decide(policy, 3.5, 8, 1.5, 2); // t = 60
    Decision d = decide(policy, 3.5, 8, 5.5, 2); // t = 90: B wants 6
    assertEquals(Map.of("s", 1, "a", 4, "b", 6), rescale(d));
    assertTrue(codes(d, "a").contains(ReasonCode.SCALE_DOWN_JOINED), codes(d, "a").toString());
    String why = TwoStageWindows.message(d, "a", ReasonCode.SCALE_DOWN_JOINED);
    assertTrue(why.contains("a warm-up and 1 window"), why);
  }

  @Test
  void aScaleDownDueLaterWaitsAndKeepsItsStartAcrossTheRestart() {
    ScalingPolicy policy = policy("120s");
    decide(policy, 3.5, 8, 1.5, 2); // A wants 4 from t = 30: due at t = 150
    Decision up = decide(policy, 3.5, 8, 5.5, 2); // t = 60: B wants 6, A waits
    assertEquals(Map.of("s", 1, "a", 8, "b", 6), rescale(up));
    assertTrue(codes(up, "a").contains(ReasonCode.SCALE_DOWN_DELAYED), codes(up, "a").toString());
    policy.rescaleApplied();
    Decision waiting = decide(policy, 3.5, 8, 5.5, 6); // t = 90
    assertEquals(ReasonCode.SCALE_DOWN_DELAYED, holdCode(waiting));
    decide(policy, 3.5, 8, 5.5, 6); // t = 120
    // t = 150: 120 s since the first lower window, not since B's restart at t = 60.
    assertEquals(Map.of("s", 1, "a", 4, "b", 6), rescale(decide(policy, 3.5, 8, 5.5, 6)));
  }

  @Test
  void aWindowAfterTheRestartThatAsksForNoLessEndsThePendingScaleDown() {
    ScalingPolicy policy = policy("120s");
    decide(policy, 3.5, 8, 1.5, 2); // A lower from t = 30
    rescale(decide(policy, 3.5, 8, 5.5, 2)); // t = 60: B's rescale
    policy.rescaleApplied();
    decide(policy, 7.5, 8, 5.5, 6); // t = 90: A wants 8 again
    for (int i = 0; i < 4; i++) { // t = 120 .. 210: lower again since t = 120, due at 240
      assertEquals(ReasonCode.SCALE_DOWN_DELAYED, holdCode(decide(policy, 3.5, 8, 5.5, 6)));
    }
    assertEquals(4, rescale(decide(policy, 3.5, 8, 5.5, 6)).get("a")); // t = 240
  }

  @Test
  void aRescaledVertexStartsItsDelayAfresh() {
    ScalingPolicy policy = policy("60s");
    decide(policy, 3.5, 8, 7.5, 8); // t = 30: A lower
    assertEquals(
        Map.of("s", 1, "a", 12, "b", 8), rescale(decide(policy, 11.5, 8, 7.5, 8))); // t = 60: up
    policy.rescaleApplied();
    assertEquals(ReasonCode.SCALE_DOWN_DELAYED, holdCode(decide(policy, 3.5, 12, 7.5, 8)));
    assertEquals(ReasonCode.SCALE_DOWN_DELAYED, holdCode(decide(policy, 3.5, 12, 7.5, 8)));
    // t = 150: 60 s after its first lower window at 12 (t = 90); by at most max-step-down 2.
    assertEquals(6, rescale(decide(policy, 3.5, 12, 7.5, 8)).get("a"));
  }

  private static ReasonCode holdCode(Decision d) {
    return assertInstanceOf(Action.Hold.class, d.action()).reason().code();
  }
}
