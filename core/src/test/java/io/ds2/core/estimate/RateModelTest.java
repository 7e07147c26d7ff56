package io.ds2.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.Observations;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hand-worked DS2 examples; every number below is computed in the comments. */
class RateModelTest {
  private static JobGraph graph(List<String> ids, Edge... edges) {
    return JobGraph.of(
        ids.stream().map(id -> new Vertex(id, id, 128)).toList(), Arrays.asList(edges));
  }

  /** An evenly spread edge: DS2's model (keyed edges: KeyedEstimateTest). */
  private static Edge e(String from, String to) {
    return new Edge(from, to, "REBALANCE");
  }

  private static Map<String, SourceDemand> demand(Observations o, String id, double rate) {
    return Map.of(id, DemandEstimator.explicit(o.get(id), rate));
  }

  private static List<ReasonCode> codes(VertexEstimate v) {
    return v.reasons().stream().map(Reason::code).toList();
  }

  @Test
  void chainWithSelectivity() {
    // 10 s window. a: 2 instances, 3000 in, 6000 out, 6000 ms busy -> 500 rec/s per instance,
    // selectivity 2. in*(a) = 1000 -> x = 2.0 -> 2; out*(a) = 2000.
    // b: 1 instance, 6000 in, 4000 ms busy -> 1500 rec/s; x = 2000/1500 = 1.33 -> 2.
    Observations o =
        new Observations(10)
            .source("s", 1, 3000)
            .operator("a", 2, 3000, 6000, 6000)
            .operator("b", 1, 6000, 0, 4000);
    Estimate est =
        RateModel.estimate(
            graph(List.of("s", "a", "b"), e("s", "a"), e("a", "b")),
            o.window(),
            demand(o, "s", 1000),
            Ds2Options.defaults());
    VertexEstimate a = est.vertex("a").orElseThrow();
    assertEquals(1000, a.targetInputRate().getAsDouble(), 1e-9);
    assertEquals(500, a.trueProcessingRatePerInstance().getAsDouble(), 1e-9);
    assertEquals(2.0, a.selectivity().getAsDouble(), 1e-9);
    assertEquals(2.0, a.requiredParallelism().getAsDouble(), 1e-9);
    assertEquals(2, a.recommendedParallelism());
    VertexEstimate b = est.vertex("b").orElseThrow();
    assertEquals(2000, b.targetInputRate().getAsDouble(), 1e-9);
    assertEquals(4.0 / 3, b.requiredParallelism().getAsDouble(), 1e-9);
    assertEquals(2, b.recommendedParallelism());
    VertexEstimate s = est.vertex("s").orElseThrow();
    assertEquals(1, s.recommendedParallelism());
    assertEquals(List.of(ReasonCode.SOURCE_NOT_SCALED), codes(s));
    assertTrue(est.complete());
  }

  @Test
  void fanInSumsAllInputs() {
    // s1 demands 600/s, s2 400/s, both into j. j: 1 instance, 3000 in over 10 s, 10 000 ms busy
    // -> 300 rec/s. in*(j) = 1000 -> x = 3.33 -> 4.
    Observations o =
        new Observations(10)
            .source("s1", 1, 1800)
            .source("s2", 1, 1200)
            .operator("j", 1, 3000, 3000, 10_000);
    Map<String, SourceDemand> demands =
        Map.of(
            "s1", DemandEstimator.explicit(o.get("s1"), 600),
            "s2", DemandEstimator.explicit(o.get("s2"), 400));
    Estimate est =
        RateModel.estimate(
            graph(List.of("s1", "s2", "j"), e("s1", "j"), e("s2", "j")),
            o.window(),
            demands,
            Ds2Options.defaults());
    VertexEstimate j = est.vertex("j").orElseThrow();
    assertEquals(1000, j.targetInputRate().getAsDouble(), 1e-9);
    assertEquals(10.0 / 3, j.requiredParallelism().getAsDouble(), 1e-9);
    assertEquals(4, j.recommendedParallelism());
  }

  @Test
  void fanOutSendsTheFullRateToEachConsumer() {
    // s demands 900/s. a: 250 rec/s per instance -> 3.6 -> 4. b: 1000 rec/s -> 0.9 -> 1.
    Observations o =
        new Observations(10)
            .source("s", 1, 500)
            .operator("a", 1, 500, 500, 2000)
            .operator("b", 1, 500, 500, 500);
    Estimate est =
        RateModel.estimate(
            graph(List.of("s", "a", "b"), e("s", "a"), e("s", "b")),
            o.window(),
            demand(o, "s", 900),
            Ds2Options.defaults());
    assertEquals(4, est.vertex("a").orElseThrow().recommendedParallelism());
    assertEquals(1, est.vertex("b").orElseThrow().recommendedParallelism());
    assertEquals(900, est.vertex("b").orElseThrow().targetInputRate().getAsDouble(), 1e-9);
  }

  @Test
  void targetUtilizationLeavesHeadroom() {
    // 500 rec/s per instance at 80 %: 1000 / 400 = 2.5 -> 3.
    Observations o = new Observations(10).source("s", 1, 1000).operator("a", 1, 1000, 0, 2000);
    Estimate est =
        RateModel.estimate(
            graph(List.of("s", "a"), e("s", "a")),
            o.window(),
            demand(o, "s", 1000),
            Ds2Options.fromMap(Map.of(Ds2Options.TARGET_UTILIZATION, "0.8")));
    assertEquals(2.5, est.vertex("a").orElseThrow().requiredParallelism().getAsDouble(), 1e-9);
    assertEquals(3, est.vertex("a").orElseThrow().recommendedParallelism());
  }

  @Test
  void boundsLimitAndSayWhy() {
    // a needs 1000/100 = 10; max-parallelism 6 limits it. b needs 0.1; min-parallelism 2.
    // c needs 10 but its vertex max parallelism is 4.
    JobGraph g =
        JobGraph.of(
            List.of(
                new Vertex("s", "s", 128),
                new Vertex("a", "a", 128),
                new Vertex("b", "b", 128),
                new Vertex("c", "c", 4)),
            List.of(e("s", "a"), e("a", "b"), e("s", "c")));
    Observations o =
        new Observations(10)
            .source("s", 1, 1000)
            .operator("a", 1, 1000, 1000, 10_000)
            .operator("b", 1, 1000, 0, 100)
            .operator("c", 1, 1000, 0, 10_000);
    Estimate est =
        RateModel.estimate(
            g,
            o.window(),
            demand(o, "s", 1000),
            Ds2Options.fromMap(
                Map.of(Ds2Options.MAX_PARALLELISM, "6", Ds2Options.MIN_PARALLELISM, "2")));
    VertexEstimate a = est.vertex("a").orElseThrow();
    assertEquals(6, a.recommendedParallelism());
    assertEquals(List.of(ReasonCode.LIMITED_BY_MAX_PARALLELISM_OPTION), codes(a));
    // DS2 propagates the unrounded, unbounded rate: b still sized for 1000/s.
    VertexEstimate b = est.vertex("b").orElseThrow();
    assertEquals(1000, b.targetInputRate().getAsDouble(), 1e-9);
    assertEquals(2, b.recommendedParallelism());
    assertEquals(List.of(ReasonCode.RAISED_TO_MIN_PARALLELISM), codes(b));
    VertexEstimate c = est.vertex("c").orElseThrow();
    assertEquals(4, c.recommendedParallelism());
    assertEquals(List.of(ReasonCode.LIMITED_BY_VERTEX_MAX_PARALLELISM), codes(c));
  }

  @Test
  void exactIntegerRequirementDoesNotAddAnInstance() {
    // Floating-point noise above an integer: 3 instances' worth must stay 3.
    Observations o = new Observations(3).source("s", 1, 900).operator("a", 1, 900, 0, 9000);
    Estimate est =
        RateModel.estimate(
            graph(List.of("s", "a"), e("s", "a")),
            o.window(),
            demand(o, "s", (0.1 + 0.2) * 1000), // 300.00000000000006 / 100 per instance
            Ds2Options.defaults());
    assertEquals(3, est.vertex("a").orElseThrow().recommendedParallelism());
  }

  @Test
  void vertexWithoutRecordsIsUndeterminedAndSoIsEverythingDownstream() {
    Observations o =
        new Observations(10)
            .source("s", 1, 1000)
            .operator("a", 2, 0, 0, 0)
            .operator("b", 3, 0, 0, 0);
    Estimate est =
        RateModel.estimate(
            graph(List.of("s", "a", "b"), e("s", "a"), e("a", "b")),
            o.window(),
            demand(o, "s", 100),
            Ds2Options.defaults());
    VertexEstimate a = est.vertex("a").orElseThrow();
    assertFalse(a.determined());
    assertEquals(2, a.recommendedParallelism());
    assertEquals(List.of(ReasonCode.NO_RECORDS_OBSERVED), codes(a));
    VertexEstimate b = est.vertex("b").orElseThrow();
    assertFalse(b.determined());
    assertEquals(3, b.recommendedParallelism());
    assertEquals(List.of(ReasonCode.UPSTREAM_UNDETERMINED), codes(b));
    assertFalse(est.complete());
  }

  @Test
  void recordsWithoutBusyTimeNeedOnlyTheMinimum() {
    Observations o = new Observations(10).source("s", 1, 1000).operator("a", 3, 1000, 1000, 0);
    Estimate est =
        RateModel.estimate(
            graph(List.of("s", "a"), e("s", "a")),
            o.window(),
            demand(o, "s", 100),
            Ds2Options.defaults());
    VertexEstimate a = est.vertex("a").orElseThrow();
    assertTrue(a.determined());
    assertEquals(1, a.recommendedParallelism());
    assertEquals(ReasonCode.BUSY_TIME_NOT_MEASURABLE, codes(a).get(0));
  }

  @Test
  void zeroDemandNeedsTheMinimum() {
    Observations o = new Observations(10).source("s", 1, 0).operator("a", 3, 0, 0, 0);
    Estimate est =
        RateModel.estimate(
            graph(List.of("s", "a"), e("s", "a")),
            o.window(),
            demand(o, "s", 0),
            Ds2Options.defaults());
    VertexEstimate a = est.vertex("a").orElseThrow();
    assertTrue(a.determined());
    assertEquals(1, a.recommendedParallelism());
    assertEquals(List.of(ReasonCode.NO_DEMAND), codes(a));
  }
}
