package io.ds2.experiments.scale;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.RateModel;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.ObservationWindow;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import io.ds2.core.window.WindowBuilder;
import io.ds2.core.window.WindowResult;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Wall time of one decision of ds2's loop for graphs of growing size, without I/O: building the
 * window from raw per-subtask samples, the DS2 estimate, and the policy's decision. Each vertex has
 * parallelism 4; sources are every tenth vertex, every operator reads its predecessor and every
 * third one also the vertex two back (fan-in). Every second operator reads its predecessor by key
 * (HASH), so half the operators are sized key group by key group: that cost grows with the max
 * parallelism (the number of key groups). Each estimate gets the keyed history the previous one
 * left, as in the loop.
 */
public final class DecisionTimeBenchmark {
  private static final int PARALLELISM = 4;
  private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
  // Refits of every source's forecast timed per size (each one fits a hundred at 1,000 vertices).
  private static final int REFITS = 5;

  /** Median and 99th percentile in microseconds, per stage and in total. */
  public record Result(
      int vertices,
      int maxParallelism,
      int iterations,
      double windowMedianMicros,
      double estimateMedianMicros,
      double decideMedianMicros,
      double totalMedianMicros,
      double totalP99Micros,
      double allocatedKiBPerDecision,
      double forecastRaisingMedianMicros,
      double forecastHoldingMedianMicros,
      double forecastStepMedianMicros,
      double forecastChooseWeightsMedianMicros) {}

  // Bytes allocated per decision: unlike wall time, the same on every machine, however loaded.
  private static final com.sun.management.ThreadMXBean ALLOCATION =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private DecisionTimeBenchmark() {}

  public static Result run(int vertices, int maxParallelism, int iterations) {
    JobGraph graph = graph(vertices, maxParallelism);
    List<JobSample> samples = List.of(sample(graph, 0), sample(graph, 30));
    WindowBuilder builder = new WindowBuilder(Duration.ofSeconds(10), Duration.ZERO);
    Ds2Options options = Ds2Options.defaults();
    ScalingPolicy policy = new ScalingPolicy(options);
    long[] window = new long[iterations];
    long[] estimate = new long[iterations];
    long[] decide = new long[iterations];
    // As in the loop, each estimate starts from what the previous one left of keyed spreads.
    KeyedHistory history = KeyedHistory.empty();
    long allocated = 0;
    for (int round = 0; round < 2; round++) { // the first round warms the JIT up
      long allocatedBefore = ALLOCATION.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < iterations; i++) {
        long t0 = System.nanoTime();
        ObservationWindow w = ((WindowResult.Ready) builder.build(graph, samples)).window();
        long t1 = System.nanoTime();
        Estimate e = RateModel.estimateFor(graph, w, DemandScenario.measured(), options, history);
        history = e.keyedHistory();
        long t2 = System.nanoTime();
        policy.decide(graph, e, T0.plusSeconds(30));
        long t3 = System.nanoTime();
        window[i] = t1 - t0;
        estimate[i] = t2 - t1;
        decide[i] = t3 - t2;
      }
      allocated = ALLOCATION.getCurrentThreadAllocatedBytes() - allocatedBefore;
    }
    // The forecast's share, on the last window and estimate: per decision, and its refit.
    ObservationWindow last = ((WindowResult.Ready) builder.build(graph, samples)).window();
    Estimate measured =
        RateModel.estimateFor(graph, last, DemandScenario.measured(), options, history);
    ForecastDecisionTime.Result forecast =
        ForecastDecisionTime.run(graph, last, measured, iterations, REFITS);
    long[] total = new long[iterations];
    for (int i = 0; i < iterations; i++) {
      total[i] = window[i] + estimate[i] + decide[i];
    }
    return new Result(
        vertices,
        maxParallelism,
        iterations,
        percentile(window, 0.5),
        percentile(estimate, 0.5),
        percentile(decide, 0.5),
        percentile(total, 0.5),
        percentile(total, 0.99),
        allocated / 1024.0 / iterations,
        forecast.raisingMedianMicros(),
        forecast.holdingMedianMicros(),
        forecast.stepMedianMicros(),
        forecast.chooseWeightsMedianMicros());
  }

  private static double percentile(long[] nanos, double q) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, (int) (q * sorted.length))] / 1000.0;
  }

  static JobGraph graph(int n, int maxParallelism) {
    List<Vertex> vertices = new ArrayList<>();
    List<Edge> edges = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      boolean source = i % 10 == 0;
      vertices.add(new Vertex("v" + i, source ? "Source: " + i : "Op " + i, maxParallelism));
      if (!source) {
        edges.add(new Edge("v" + (i - 1), "v" + i, i % 2 == 0 ? "HASH" : "REBALANCE"));
        if (i % 3 == 0 && i >= 2 && (i - 2) % 10 != 9) {
          edges.add(new Edge("v" + (i - 2), "v" + i, "REBALANCE"));
        }
      }
    }
    return JobGraph.of(vertices, edges);
  }

  /** Cumulative counters at {@code seconds}: 100 records/s in and out per subtask, 40 % busy. */
  static JobSample sample(JobGraph graph, int seconds) {
    Map<String, VertexSample> vs = new LinkedHashMap<>();
    for (Vertex v : graph.topologicalOrder()) {
      boolean source = graph.isSource(v.id());
      List<SubtaskSample> subtasks = new ArrayList<>();
      for (int i = 0; i < PARALLELISM; i++) {
        double records = 100.0 * seconds;
        subtasks.add(
            SubtaskSample.of(
                i, source ? 0 : records, records, seconds * 400.0, seconds * 600.0, 0));
      }
      vs.put(
          v.id(),
          new VertexSample(
              v.id(),
              "RUNNING",
              PARALLELISM,
              subtasks,
              source ? OptionalDouble.of(0) : OptionalDouble.empty()));
    }
    return new JobSample(
        T0.plusSeconds(seconds), "RUNNING", T0.minusSeconds(600), OptionalLong.of(0), vs);
  }
}
