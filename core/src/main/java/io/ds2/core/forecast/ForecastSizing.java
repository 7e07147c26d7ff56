package io.ds2.core.forecast;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Sizing ahead of a forecast: the demand a forecast asks for (each source's forecast peak within
 * the lead time less the forecast's error, where the peak is above what was measured by more than
 * that error), and the measured estimate raised — never lowered — to what that demand needs.
 * Scale-downs therefore come from measurements only, and the forecast looks no further than the
 * lead time: a lower need that has lasted the scale-down delay is stepped down as without a
 * forecast, and raised again by it a lead time before the demand returns.
 */
public final class ForecastSizing {
  private ForecastSizing() {}

  /**
   * The scenario to size for ahead, or empty where a forecast has no say: the user stated the
   * demand (given rates, a what-if factor), or no source is forecast above its measured rate by
   * more than the forecast's own error.
   */
  public static Optional<DemandScenario> demand(
      JobGraph graph, DemandScenario measured, Outlook.Ahead ahead) {
    if (!measured.givenRates().isEmpty() || measured.rateScale() != 1) {
      return Optional.empty();
    }
    Map<String, Double> rates = new LinkedHashMap<>();
    boolean above = false;
    for (Vertex v : graph.sources()) {
      Double peak = ahead.peak().get(v.name());
      Double now = ahead.measured().get(v.name());
      if (peak == null || now == null) {
        return Optional.empty();
      }
      // A forecast within its own error of what was measured says nothing new.
      boolean rises = peak > now * (1 + ahead.error());
      above |= rises;
      rates.put(v.id(), rises ? sure(peak, ahead.error()) : now);
    }
    return above
        ? Optional.of(new DemandScenario(rates, 1, measured.sourceSplits()))
        : Optional.empty();
  }

  /**
   * The demand a forecast of {@code peak} is sure of: its peak less its own error. The target
   * utilization keeps its headroom above that (a peak that comes in full runs the vertex at the
   * target times one plus the error, and the next windows measure it), so the error is not counted
   * twice; where the peak is the step that asks for a much wider vertex (a Kafka source whose
   * partitions split evenly only at twice its parallelism) a forecast within its error does not
   * take that step on its own.
   */
  static double sure(double peak, double error) {
    return peak / (1 + error);
  }

  /**
   * {@code measured}, each vertex raised to its parallelism in {@code ahead} where that is higher,
   * with a reason naming the forecast. Where both ask for the same scale-up, the forecast's
   * estimate stands too if it sizes for more input: the policy judges a scale-up by its estimate
   * (whether the busiest subtask at the current parallelism is within the scale-up tolerance), and
   * the load the forecast is sure of within the lead time (its peak less its error) is the one to
   * judge it at, not the window's.
   */
  public static Estimate raise(
      JobGraph graph, Estimate measured, Estimate ahead, Outlook.Ahead outlook) {
    List<VertexEstimate> vertices = new ArrayList<>(measured.vertices().size());
    String why =
        because(graph, outlook)
            + ", the job's rescale time, a warm-up and the windows a change must persist"
            + error(outlook);
    // By id once: looking each vertex up in the list made this quadratic (2 ms at 1,000 vertices).
    Map<String, VertexEstimate> byId = new HashMap<>(2 * ahead.vertices().size());
    ahead.vertices().forEach(a -> byId.put(a.vertexId(), a));
    for (VertexEstimate m : measured.vertices()) {
      VertexEstimate a = byId.get(m.vertexId());
      if (a != null && m.determined() && a.determined() && raises(m, a)) {
        vertices.add(a.withReason(new Reason(ReasonCode.FORECAST_AHEAD, why)));
      } else {
        vertices.add(m);
      }
    }
    return new Estimate(
        measured.window(),
        measured.demands(),
        vertices,
        measured.targetUtilization(),
        measured.keyedHistory());
  }

  private static boolean raises(VertexEstimate measured, VertexEstimate ahead) {
    int m = measured.recommendedParallelism();
    int a = ahead.recommendedParallelism();
    return a > m
        || (a == m
            && a > measured.currentParallelism()
            && ahead.targetInputRate().orElse(0) > measured.targetInputRate().orElse(0));
  }

  /** The parallelism of every vertex of {@code e}, by vertex id. */
  public static Map<String, Integer> parallelism(Estimate e) {
    Map<String, Integer> p = new LinkedHashMap<>();
    e.vertices().forEach(v -> p.put(v.vertexId(), v.recommendedParallelism()));
    return p;
  }

  private static String because(JobGraph graph, Outlook.Ahead a) {
    StringBuilder s = new StringBuilder("forecast: ");
    String sep = "";
    for (Vertex v : graph.sources()) {
      double peak = a.peak().getOrDefault(v.name(), 0.0);
      double now = a.measured().getOrDefault(v.name(), 0.0);
      s.append(sep)
          .append(
              String.format(
                  Locale.ROOT, "%s up to %.1f/s (now %.1f/s)", v.name(), Math.max(peak, now), now));
      sep = ", ";
    }
    return s.append(String.format(Locale.ROOT, " within %d s", a.lead().toSeconds())).toString();
  }

  private static String error(Outlook.Ahead a) {
    return String.format(
        Locale.ROOT,
        " (forecast error %.0f %%: a rise is sized for its peak less the error)",
        100 * a.error());
  }
}
