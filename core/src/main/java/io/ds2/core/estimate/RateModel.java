package io.ds2.core.estimate;

import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.KeyGroupLoad;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.keyed.SubtaskShares;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.window.ObservationWindow;
import io.ds2.core.window.VertexObservation;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.IntToDoubleFunction;

/**
 * The DS2 computation (Kalavri et al., OSDI'18, Eq. 7-8): one pass over the graph in topological
 * order gives every vertex's parallelism for the sources' demand.
 *
 * <pre>
 * out*(source) = demand(source)
 * in*(v)       = sum of out*(u) over every upstream u (fan-in adds up)
 * out*(v)      = selectivity(v) * in*(v)             (unrounded, DS2)
 * x(v)         = in*(v) / (true rate per instance * target utilization)
 * pi(v)        = clamp(ceil(x(v)), min, min(max option, vertex max parallelism))
 * </pre>
 *
 * A source vertex is sized like any other, by its splits ({@link SourceEstimate}). A vertex with
 * several outputs sends its full out* to each consumer, as DS2 does. DS2's x assumes the input
 * spreads evenly over the subtasks; for a vertex with a keyed input Flink spreads it by key-group
 * range, so from pi(v) upward the smallest parallelism at which the busiest subtask keeps up is
 * taken ({@link KeyedEstimate}).
 */
public final class RateModel {
  private RateModel() {}

  /**
   * The estimate for a window: each source's demand is the scenario's rate where given, else
   * inferred from its output and backlog (and scaled by the scenario's factor). Nothing is
   * remembered from earlier windows.
   */
  public static Estimate estimateFor(
      JobGraph graph, ObservationWindow window, DemandScenario scenario, Ds2Options options) {
    return estimateFor(graph, window, scenario, options, KeyedHistory.empty());
  }

  /**
   * As {@link #estimateFor(JobGraph, ObservationWindow, DemandScenario, Ds2Options)}, with what
   * earlier windows showed of keyed vertices' spreads ({@link Estimate#keyedHistory()} of the
   * previous estimate).
   */
  public static Estimate estimateFor(
      JobGraph graph,
      ObservationWindow window,
      DemandScenario scenario,
      Ds2Options options,
      KeyedHistory history) {
    return estimate(
        graph,
        window,
        DemandEstimator.demands(
            graph, window, scenario, options.catchUp(), options.targetUtilization()),
        options,
        history,
        scenario.sourceSplits());
  }

  /**
   * @param demands one demand per source vertex of the graph
   * @throws IllegalArgumentException if a source has no demand or a vertex no observation
   */
  public static Estimate estimate(
      JobGraph graph,
      ObservationWindow window,
      Map<String, SourceDemand> demands,
      Ds2Options options) {
    return estimate(graph, window, demands, options, KeyedHistory.empty());
  }

  public static Estimate estimate(
      JobGraph graph,
      ObservationWindow window,
      Map<String, SourceDemand> demands,
      Ds2Options options,
      KeyedHistory history) {
    return estimate(graph, window, demands, options, history, Map.of());
  }

  /**
   * @param sourceSplits split counts the user gave, by source vertex id or name
   */
  public static Estimate estimate(
      JobGraph graph,
      ObservationWindow window,
      Map<String, SourceDemand> demands,
      Ds2Options options,
      KeyedHistory history,
      Map<String, Integer> sourceSplits) {
    Walk walk =
        new Walk(graph, window, options, history.retainOnly(id -> graph.vertex(id).isPresent()));
    List<Vertex> order = graph.topologicalOrder();
    InOrder inOrder = new InOrder(window);
    List<VertexEstimate> results = new ArrayList<>(order.size());
    for (int pos = 0; pos < order.size(); pos++) {
      Vertex v = order.get(pos);
      VertexObservation obs = inOrder.next(v);
      walk.observations[pos] = obs;
      VertexEstimate e;
      List<Edge> inputs = graph.inputsAt(pos);
      if (inputs.isEmpty()) {
        SourceDemand d = demands.get(v.id());
        if (d == null) {
          throw new IllegalArgumentException("no demand for source " + v.name());
        }
        Integer given = sourceSplits.getOrDefault(v.id(), sourceSplits.get(v.name()));
        e =
            SourceEstimate.size(
                v,
                obs,
                d,
                options,
                given == null ? OptionalInt.empty() : OptionalInt.of(given),
                walk.history,
                walk.observed);
        // The demand is what the source reads; its vertex emits that through its chain.
        walk.now[pos] = d.currentRate() * obs.sourceSelectivity();
      } else {
        e = walk.operator(v, pos, inputs, obs);
      }
      walk.outStar[pos] = e.targetOutputRate();
      results.add(e);
    }
    return new Estimate(
        window, demands, results, options.targetUtilization(), walk.history.with(walk.observed));
  }

  /**
   * The window's observations in the order the graph visits them: a window is cut over the graph's
   * topological order, so the next one is taken without a lookup when its id matches (a lookup by
   * id otherwise, as for a window of another order).
   */
  private static final class InOrder {
    private final ObservationWindow window;
    private final java.util.Iterator<VertexObservation> next;

    InOrder(ObservationWindow window) {
      this.window = window;
      this.next = window.vertices().values().iterator();
    }

    VertexObservation next(Vertex v) {
      VertexObservation o = next.hasNext() ? next.next() : null;
      if (o != null && o.vertexId().equals(v.id())) {
        return o;
      }
      return window
          .vertex(v.id())
          .orElseThrow(() -> new IllegalArgumentException("no observation of " + v.name()));
    }
  }

  /** The state of one pass over the graph. */
  private static final class Walk {
    private final JobGraph graph;
    private final ObservationWindow window;
    private final Ds2Options options;
    private final KeyedHistory history;
    // this window's observations of keyed vertices, merged into the history once at the end
    private final Map<String, List<SubtaskShares>> observed = new HashMap<>();
    // Per vertex by topological position, not maps by id: a 1,000-vertex walk reads them some
    // 5,000 times, and hashing ids showed as a third of the estimate's time.
    // out* of every vertex visited (empty: undetermined)
    private final OptionalDouble[] outStar;
    // what every vertex visited had to emit during the window (no what-if, no catch-up)
    private final double[] now;
    // the observation of every vertex visited
    private final VertexObservation[] observations;

    Walk(JobGraph graph, ObservationWindow window, Ds2Options options, KeyedHistory history) {
      int n = graph.topologicalOrder().size();
      this.outStar = new OptionalDouble[n];
      this.now = new double[n];
      this.observations = new VertexObservation[n];
      this.graph = graph;
      this.window = window;
      this.options = options;
      this.history = history;
    }

    VertexEstimate operator(Vertex v, int pos, List<Edge> inputs, VertexObservation obs) {
      List<Reason> reasons = new ArrayList<>();
      double nowIn = 0;
      double inSum = 0;
      String undetermined = null;
      for (int k = 0; k < inputs.size(); k++) {
        int u = graph.inputPosition(pos, k);
        nowIn += now[u];
        OptionalDouble up = outStar[u];
        if (up.isEmpty()) {
          undetermined = undetermined == null ? inputs.get(k).from() : undetermined;
        } else {
          inSum += up.getAsDouble();
        }
      }
      OptionalDouble selectivity = obs.selectivity();
      now[pos] =
          selectivity.isPresent() ? nowIn * selectivity.getAsDouble() : obs.observedOutputRate();
      if (undetermined != null) {
        reasons.add(
            new Reason(
                ReasonCode.UPSTREAM_UNDETERMINED,
                "input rate unknown: upstream vertex "
                    + undetermined
                    + " could not be estimated; keeping the current parallelism"));
        return undetermined(v, obs, OptionalDouble.empty(), reasons);
      }
      double inStar = inSum;
      OptionalDouble in = OptionalDouble.of(inSum);
      OptionalDouble trueRate = obs.trueProcessingRatePerInstance();
      double required;
      OptionalDouble outRate;
      if (inStar <= 0) {
        required = 0;
        outRate = OptionalDouble.of(0);
        reasons.add(new Reason(ReasonCode.NO_DEMAND, "no input expected"));
      } else if (selectivity.isEmpty()) {
        reasons.add(
            new Reason(
                ReasonCode.NO_RECORDS_OBSERVED,
                "no records reached this vertex in the window, so its capacity is unknown;"
                    + " keeping the current parallelism"));
        return undetermined(v, obs, in, reasons);
      } else {
        outRate = OptionalDouble.of(selectivity.getAsDouble() * inStar);
        if (trueRate.isPresent()) {
          required = inStar / (trueRate.getAsDouble() * options.targetUtilization());
        } else {
          required = 0;
          reasons.add(
              new Reason(
                  ReasonCode.BUSY_TIME_NOT_MEASURABLE,
                  "records were processed with no measurable busy time; capacity is beyond"
                      + " measurement"));
        }
      }
      int recommended = ParallelismBounds.apply(v, required, options, reasons);
      Optional<KeySpread> spread = Optional.empty();
      Optional<KeyGroupLoad> load = spreadOf(v, pos, inputs, obs, nowIn);
      if (load.isPresent() && required > 0) {
        double capacity = trueRate.getAsDouble() * options.targetUtilization();
        IntToDoubleFunction capacityAt = p -> capacity;
        KeySpread s = KeyedEstimate.size(v, load.get(), inStar, capacityAt, recommended, options);
        KeyedEstimate.explain(v, s, inStar, capacityAt, options, reasons);
        spread = Optional.of(s);
        recommended = s.parallelism();
      }
      return new VertexEstimate(
          v.id(),
          v.name(),
          false,
          true,
          obs.parallelism(),
          v.maxParallelism(),
          in,
          outRate,
          trueRate,
          selectivity,
          OptionalDouble.of(required),
          recommended,
          reasons,
          spread,
          Optional.empty());
    }

    /**
     * The spread of the vertex's input over key groups: measured (and remembered) for a keyed
     * input; empty otherwise. (A FORWARD or RESCALE input follows its producer's subtasks, which
     * depends on the parallelism the producer is going to run at: the policy checks it against
     * that, {@code PointwiseInputs}.)
     */
    private Optional<KeyGroupLoad> spreadOf(
        Vertex v, int pos, List<Edge> inputs, VertexObservation obs, double nowIn) {
      boolean keyed = false;
      for (Edge e : inputs) {
        keyed |= e.keyed();
      }
      boolean throttled = false;
      for (int k = 0; keyed && k < inputs.size(); k++) {
        VertexObservation u = observations[graph.inputPosition(pos, k)];
        throttled |=
            u != null && u.backPressuredRatio().orElse(0) >= KeyedEstimate.THROTTLED_BACK_PRESSURE;
      }
      if (keyed) {
        Optional<SubtaskShares> seen =
            KeyedEstimate.observe(obs, v.maxParallelism(), nowIn, throttled);
        List<SubtaskShares> known =
            seen.map(s -> history.observationsWith(v.id(), s)).orElse(history.of(v.id()));
        observed.put(v.id(), known);
        return Optional.of(
            known.isEmpty()
                ? KeyGroupLoad.even(v.maxParallelism())
                : KeyGroupLoad.combine(v.maxParallelism(), known));
      }
      return Optional.empty();
    }
  }

  private static VertexEstimate undetermined(
      Vertex v, VertexObservation obs, OptionalDouble inStar, List<Reason> reasons) {
    return new VertexEstimate(
        v.id(),
        v.name(),
        false,
        false,
        obs.parallelism(),
        v.maxParallelism(),
        inStar,
        OptionalDouble.empty(),
        obs.trueProcessingRatePerInstance(),
        obs.selectivity(),
        OptionalDouble.empty(),
        obs.parallelism(),
        reasons,
        Optional.empty(),
        Optional.empty());
  }

  // Every unsized source's reason carries its demand: Formatter's parsing would cost more than the
  // source's whole estimate, so the one decimal is rounded directly.
  static String rate(double r) {
    String digits =
        Double.isFinite(r)
            ? BigDecimal.valueOf(r).setScale(1, RoundingMode.HALF_UP).toPlainString()
            : String.valueOf(r);
    return digits + " records/s";
  }
}
