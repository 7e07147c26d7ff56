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
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.window.SubtaskSample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A scale-up is held while the busiest subtask, at the current parallelism, uses no more than
 * {@code scale-up-tolerance} (0.1 by default) of the headroom the target keeps: at 0.7, up to 0.73
 * busy. The case it is for: a source on 12 partitions at 6 (two each), 0.71 busy for 0.7, whose
 * next parallelism that relieves its busiest subtask is 12.
 */
class ScaleUpToleranceTest {
  private static final double SECONDS = 10;
  private static final Vertex SOURCE = new Vertex("s", "Source: Orders -> Parse", 128);
  private static final Vertex SINK = new Vertex("k", "Join -> Sink", 128);
  private static final JobGraph GRAPH =
      JobGraph.of(List.of(SOURCE, SINK), List.of(new Edge("s", "k", "HASH")));
  private static final double COST_MS = 1000 / 143.5; // 143.5 records/s a busy instance
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static Ds2Options options(String... kv) {
    Map<String, String> m = new HashMap<>();
    m.put("activation", "1");
    m.put("target-utilization", "0.7");
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return Ds2Options.fromMap(m);
  }

  /** The source at 6 subtasks on 12 partitions, each reading a sixth of {@code demand}. */
  private static Estimate window(double demand, Ds2Options o) {
    return window(demand, 0.1, o);
  }

  /** As above, the keyed Join at 1 subtask {@code joinBusy} busy with all of it. */
  private static Estimate window(double demand, double joinBusy, Ds2Options o) {
    List<SubtaskSample> subtasks = new ArrayList<>();
    double in = demand / 6 * SECONDS;
    for (int i = 0; i < 6; i++) {
      double busy = in * COST_MS;
      subtasks.add(SubtaskSample.of(i, in, in, busy, SECONDS * 1000 - busy, 0));
    }
    Observations obs = new Observations(SECONDS).source("s", subtasks, Optional.empty());
    double joinMs = joinBusy * SECONDS * 1000;
    obs.operator(
        "k", List.of(SubtaskSample.of(0, demand * SECONDS, 0, joinMs, SECONDS * 1000 - joinMs, 0)));
    return RateModel.estimate(
        GRAPH,
        obs.window(),
        Map.of("s", DemandEstimator.explicit(obs.get("s"), demand)),
        o,
        KeyedHistory.empty(),
        Map.of("s", 12));
  }

  private static Decision decide(double demand, Ds2Options o) {
    return new ScalingPolicy(o).decide(GRAPH, window(demand, o), NOW);
  }

  private static List<ReasonCode> codes(Decision d) {
    return codes(d, "s");
  }

  private static List<ReasonCode> codes(Decision d, String vertex) {
    return d.vertex(vertex).orElseThrow().reasons().stream().map(Reason::code).toList();
  }

  @Test
  void aKeyedVertexIsJudgedByItsBusiestSubtaskToo() {
    // The Join alone (p = 1, its busiest subtask all of it) 0.72 busy: DS2 says 1.03 -> 2.
    Decision held = new ScalingPolicy(options()).decide(GRAPH, window(500, 0.72, options()), NOW);
    assertEquals(1, held.vertex("k").orElseThrow().target(), held.toString());
    assertTrue(codes(held, "k").contains(ReasonCode.SCALE_UP_WITHIN_HEADROOM), held.toString());
    // 0.75 busy: beyond 0.73.
    Decision up = new ScalingPolicy(options()).decide(GRAPH, window(500, 0.75, options()), NOW);
    assertEquals(2, ((Action.Rescale) up.action()).parallelism().get("k"), up.toString());
  }

  @Test
  void aSourceAFewPercentOverItsTargetIsNotDoubledForItsSplits() {
    // 611.2/s over 6: 101.9/s a subtask, 0.71 busy; DS2 says 6.08 -> 7, the splits 12.
    Decision d = decide(611.2, options());
    assertInstanceOf(Action.Hold.class, d.action(), d.toString());
    assertEquals(6, d.vertex("s").orElseThrow().target());
    assertEquals(12, d.vertex("s").orElseThrow().recommended());
    assertTrue(codes(d).contains(ReasonCode.SCALE_UP_WITHIN_HEADROOM), d.toString());
    assertTrue(codes(d).contains(ReasonCode.UNEVEN_SPLITS), d.toString());
  }

  @Test
  void beyondTheToleranceItScalesUp() {
    // 650/s over 6: 108.3/s a subtask, 0.755 busy, above 0.73.
    Decision d = decide(650, options());
    assertEquals(12, ((Action.Rescale) d.action()).parallelism().get("s"), d.toString());
  }

  @Test
  void aHeldWindowStillCountsTowardsTheNextScaleUpsActivation() {
    // Two windows must agree (activation 2, the default): two at 0.71 busy agree and are held;
    // the third, a step to 0.85 busy, makes the scale-up at once, not a window later.
    Ds2Options o = options("activation", "2");
    ScalingPolicy policy = new ScalingPolicy(o);
    Decision first = policy.decide(GRAPH, window(611.2, o), NOW);
    assertTrue(codes(first).contains(ReasonCode.ACTIVATING), first.toString());
    Decision second = policy.decide(GRAPH, window(611.2, o), NOW.plusSeconds(30));
    assertInstanceOf(Action.Hold.class, second.action(), second.toString());
    assertTrue(codes(second).contains(ReasonCode.SCALE_UP_WITHIN_HEADROOM), second.toString());
    Decision third = policy.decide(GRAPH, window(6 * 143.5 * 0.85, o), NOW.plusSeconds(60));
    assertEquals(12, ((Action.Rescale) third.action()).parallelism().get("s"), third.toString());
  }

  @Test
  void atToleranceZeroOrATargetOfOneEveryNeededScaleUpIsMade() {
    Decision none = decide(611.2, options("scale-up-tolerance", "0"));
    assertEquals(12, ((Action.Rescale) none.action()).parallelism().get("s"), none.toString());
    // At 1.0 there is no headroom: 6 subtasks at 1.01 busy fall behind.
    Decision full = decide(6 * 143.5 * 1.01, options("target-utilization", "1.0"));
    assertEquals(12, ((Action.Rescale) full.action()).parallelism().get("s"), full.toString());
  }

  @Test
  void badTolerancesAreRefusedNamingTheOption() {
    io.ds2.core.options.InvalidOptionException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            io.ds2.core.options.InvalidOptionException.class,
            () -> options("scale-up-tolerance", "1.5"));
    assertEquals("scale-up-tolerance", e.option());
  }
}
