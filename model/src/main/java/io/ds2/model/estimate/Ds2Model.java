package io.ds2.model.estimate;

import io.ds2.model.graph.Edge;
import io.ds2.model.graph.JobGraph;
import io.ds2.model.graph.Vertex;
import io.ds2.model.options.Ds2Options;
import io.ds2.model.window.ObservationWindow;
import io.ds2.model.window.VertexObservation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

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
 * A vertex with several outputs sends its full out* to each consumer, as DS2 does.
 */
public final class Ds2Model {
  private Ds2Model() {}

  /**
   * The estimate for a window: each source's demand is the scenario's rate where given, else
   * inferred from its output and backlog (and scaled by the scenario's factor).
   */
  public static Estimate estimateFor(
      JobGraph graph, ObservationWindow window, DemandScenario scenario, Ds2Options options) {
    return estimate(
        graph,
        window,
        DemandEstimator.demands(graph, window, scenario, options.catchUp()),
        options);
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
    Map<String, OptionalDouble> outStar = new HashMap<>();
    List<VertexEstimate> results = new ArrayList<>();
    for (Vertex v : graph.topologicalOrder()) {
      VertexObservation obs =
          window
              .vertex(v.id())
              .orElseThrow(() -> new IllegalArgumentException("no observation of " + v.name()));
      VertexEstimate e =
          graph.isSource(v.id())
              ? source(v, obs, demands)
              : operator(v, obs, inputRate(graph, v, outStar), keyed(graph, v), options);
      outStar.put(v.id(), e.targetOutputRate());
      results.add(e);
    }
    return new Estimate(window, demands, results, options.targetUtilization());
  }

  private static VertexEstimate source(
      Vertex v, VertexObservation obs, Map<String, SourceDemand> demands) {
    SourceDemand d = demands.get(v.id());
    if (d == null) {
      throw new IllegalArgumentException("no demand for source " + v.name());
    }
    return new VertexEstimate(
        v.id(),
        v.name(),
        true,
        true,
        obs.parallelism(),
        v.maxParallelism(),
        OptionalDouble.empty(),
        OptionalDouble.of(d.targetRate()),
        // Sources under-report busy time (fetch threads are not counted): no true rate shown.
        OptionalDouble.empty(),
        OptionalDouble.empty(),
        OptionalDouble.empty(),
        obs.parallelism(),
        List.of(
            new Reason(
                ReasonCode.SOURCE_NOT_SCALED,
                "sources are not scaled; demand "
                    + rate(d.targetRate())
                    + " ("
                    + d.basis().name().toLowerCase(java.util.Locale.ROOT)
                    + (d.scale() == 1
                        ? ""
                        : String.format(java.util.Locale.ROOT, " x %s", d.scale()))
                    + ")")));
  }

  /** in*(v), or the first upstream vertex whose out* is unknown. */
  private static InputRate inputRate(
      JobGraph graph, Vertex v, Map<String, OptionalDouble> outStar) {
    double sum = 0;
    for (Edge e : graph.inputsOf(v.id())) {
      OptionalDouble up = outStar.get(e.from());
      if (up.isEmpty()) {
        return new InputRate(OptionalDouble.empty(), e.from());
      }
      sum += up.getAsDouble();
    }
    return new InputRate(OptionalDouble.of(sum), null);
  }

  private record InputRate(OptionalDouble rate, String undeterminedUpstream) {}

  private static boolean keyed(JobGraph graph, Vertex v) {
    return graph.inputsOf(v.id()).stream().anyMatch(Edge::keyed);
  }

  private static VertexEstimate operator(
      Vertex v, VertexObservation obs, InputRate in, boolean keyed, Ds2Options options) {
    List<Reason> reasons = new ArrayList<>();
    if (in.rate().isEmpty()) {
      reasons.add(
          new Reason(
              ReasonCode.UPSTREAM_UNDETERMINED,
              "input rate unknown: upstream vertex "
                  + in.undeterminedUpstream()
                  + " could not be estimated; keeping the current parallelism"));
      return undetermined(v, obs, OptionalDouble.empty(), reasons);
    }
    double inStar = in.rate().getAsDouble();
    OptionalDouble selectivity = obs.selectivity();
    OptionalDouble trueRate = obs.trueProcessingRatePerInstance();
    double required;
    OptionalDouble outStar;
    if (inStar <= 0) {
      required = 0;
      outStar = OptionalDouble.of(0);
      reasons.add(new Reason(ReasonCode.NO_DEMAND, "no input expected"));
    } else if (selectivity.isEmpty()) {
      reasons.add(
          new Reason(
              ReasonCode.NO_RECORDS_OBSERVED,
              "no records reached this vertex in the window, so its capacity is unknown; keeping"
                  + " the current parallelism"));
      return undetermined(v, obs, in.rate(), reasons);
    } else {
      outStar = OptionalDouble.of(selectivity.getAsDouble() * inStar);
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
    if (keyed && required > 0) {
      UnevenInput.check(obs, required).ifPresent(reasons::add);
    }
    int recommended = ParallelismBounds.apply(v, required, options, reasons);
    return new VertexEstimate(
        v.id(),
        v.name(),
        false,
        true,
        obs.parallelism(),
        v.maxParallelism(),
        in.rate(),
        outStar,
        trueRate,
        selectivity,
        OptionalDouble.of(required),
        recommended,
        reasons);
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
        reasons);
  }

  private static String rate(double r) {
    return String.format(java.util.Locale.ROOT, "%.1f records/s", r);
  }
}
