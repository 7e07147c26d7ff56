package io.ds2.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.Observations;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Under DS2's assumption (per-instance capacity 1/cost, linear in parallelism) the recommendation
 * sustains the target and is minimal, for random DAGs observed at random operating points.
 */
class RateModelPropertiesTest {

  /** A random DAG: sources, then operators each reading 1-2 earlier vertices. */
  record Scenario(
      int sources,
      List<double[]> operators, // {costSeconds, selectivity, currentP, observedFraction}
      List<int[]> inputs,
      double[] sourceRates) {}

  @Provide
  Arbitrary<Scenario> scenarios() {
    return Combinators.combine(
            Arbitraries.integers().between(1, 3),
            Arbitraries.integers().between(1, 8),
            Arbitraries.randoms())
        .as(
            (sources, ops, random) -> {
              List<double[]> operators = new ArrayList<>();
              List<int[]> inputs = new ArrayList<>();
              for (int i = 0; i < ops; i++) {
                double cost = 1e-4 + random.nextDouble() * 0.02; // 0.1-20 ms per record
                double selectivity = 0.1 + random.nextDouble() * 2.9;
                int p = 1 + random.nextInt(8);
                double observed = 0.05 + random.nextDouble() * 0.95;
                operators.add(new double[] {cost, selectivity, p, observed});
                int available = sources + i;
                int first = random.nextInt(available);
                int second = random.nextInt(available);
                inputs.add(first == second ? new int[] {first} : new int[] {first, second});
              }
              double[] rates = new double[sources];
              for (int s = 0; s < sources; s++) {
                rates[s] = 10 + random.nextDouble() * 2000;
              }
              return new Scenario(sources, operators, inputs, rates);
            });
  }

  @Property(tries = 300)
  void recommendationSustainsTheTargetAndIsMinimal(@ForAll("scenarios") Scenario sc) {
    int n = sc.sources() + sc.operators().size();
    List<Vertex> vertices = new ArrayList<>();
    List<Edge> edges = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      vertices.add(new Vertex("v" + i, "v" + i, 32768));
    }
    // Oracle: the true input rate of every vertex, propagated independently of the model.
    double[] rate = new double[n];
    for (int s = 0; s < sc.sources(); s++) {
      rate[s] = sc.sourceRates()[s];
    }
    double seconds = 30;
    Observations obs = new Observations(seconds);
    Map<String, SourceDemand> demands = new HashMap<>();
    for (int s = 0; s < sc.sources(); s++) {
      obs.source("v" + s, 1, rate[s] * seconds * 0.5);
      demands.put("v" + s, DemandEstimator.explicit(obs.get("v" + s), rate[s]));
    }
    double[] in = new double[n];
    for (int k = 0; k < sc.operators().size(); k++) {
      int id = sc.sources() + k;
      for (int up : sc.inputs().get(k)) {
        // Even spread (DS2's model); keyed spreads are KeyedSizingTest's property.
        edges.add(new Edge("v" + up, "v" + id, "REBALANCE"));
        in[id] += rate[up];
      }
      double[] op = sc.operators().get(k);
      rate[id] = in[id] * op[1];
      // Observed at some fraction of the target: records and busy time are consistent with a
      // per-record cost op[0], whatever the current parallelism.
      double records = in[id] * op[3] * seconds;
      obs.operator("v" + id, (int) op[2], records, records * op[1], records * op[0] * 1000);
    }
    Estimate est =
        RateModel.estimate(
            JobGraph.of(vertices, edges), obs.window(), demands, Ds2Options.defaults());
    for (int k = 0; k < sc.operators().size(); k++) {
      int id = sc.sources() + k;
      VertexEstimate v = est.vertex("v" + id).orElseThrow();
      double cost = sc.operators().get(k)[0];
      int p = v.recommendedParallelism();
      assertEquals(in[id], v.targetInputRate().getAsDouble(), 1e-6 * in[id]);
      assertTrue(p / cost >= in[id] * (1 - 1e-9), "sustains: " + p + " x " + 1 / cost);
      assertTrue(p == 1 || (p - 1) / cost < in[id], "minimal: " + (p - 1) + " would do");
    }
  }
}
