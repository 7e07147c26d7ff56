package io.ds2.model.policy;

import io.ds2.model.estimate.VertexEstimate;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Remembers each vertex's measured cost per record at every parallelism it ran at, and fits a
 * {@link CostCurve} when scaling has proven sub-linear.
 */
final class EfficiencyModel {
  private static final int MAX_POINTS_PER_VERTEX = 8;
  private final Map<String, LinkedHashMap<Integer, Double>> costs = new HashMap<>();

  /** Records the latest measured cost at the vertex's current parallelism. */
  void observe(VertexEstimate v) {
    if (v.source() || !v.determined() || v.trueProcessingRatePerInstance().isEmpty()) {
      return;
    }
    LinkedHashMap<Integer, Double> points =
        costs.computeIfAbsent(v.vertexId(), k -> new LinkedHashMap<>());
    Integer p = v.currentParallelism();
    Double cost = 1 / v.trueProcessingRatePerInstance().getAsDouble();
    // Most windows see the parallelism seen last: updating in place keeps it the most recent.
    if (points.size() == 1 && points.containsKey(p)) {
      points.put(p, cost);
      return;
    }
    points.remove(p); // re-insert as the most recent
    points.put(p, cost);
    if (points.size() > MAX_POINTS_PER_VERTEX) {
      points.remove(points.keySet().iterator().next());
    }
  }

  /**
   * The fitted curve, if the vertex ran at two or more parallelisms and the cost at the largest
   * exceeds the cost at the smallest by more than {@code tolerance} (relative): otherwise DS2's
   * linear assumption holds within measurement noise.
   */
  Optional<CostCurve> curve(String vertexId, double tolerance) {
    Map<Integer, Double> points = costs.get(vertexId);
    if (points == null || points.size() < 2) {
      return Optional.empty();
    }
    int low = points.keySet().stream().min(Integer::compare).orElseThrow();
    int high = points.keySet().stream().max(Integer::compare).orElseThrow();
    if (points.get(high) <= points.get(low) * (1 + tolerance)) {
      return Optional.empty();
    }
    SimpleRegression fit = new SimpleRegression();
    points.forEach((p, cost) -> fit.addData(p, cost));
    // A non-positive intercept means the points are too noisy to extrapolate from.
    if (fit.getSlope() <= 0 || fit.getIntercept() <= 0) {
      return Optional.empty();
    }
    return Optional.of(new CostCurve(fit.getIntercept(), fit.getSlope(), low, high));
  }
}
