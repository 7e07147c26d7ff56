package io.ds2.core.policy;

import io.ds2.core.estimate.VertexEstimate;
import java.util.Optional;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Remembers each vertex's measured cost per record at every parallelism it ran at, and fits a
 * {@link CostCurve} when scaling has proven sub-linear.
 */
final class EfficiencyModel {
  private static final int MAX_POINTS_PER_VERTEX = 8;
  private final ByVertex<Points> costs = new ByVertex<>();

  /**
   * One vertex's measured cost per record by parallelism, most recent last. Two small arrays, not a
   * map of boxed numbers: the policy updates every vertex's in every window.
   */
  private static final class Points {
    final int[] parallelism = new int[MAX_POINTS_PER_VERTEX];
    final double[] cost = new double[MAX_POINTS_PER_VERTEX];
    int size;

    void put(int p, double c) {
      // Most windows see the parallelism seen last: update it in place.
      if (size > 0 && parallelism[size - 1] == p) {
        cost[size - 1] = c;
        return;
      }
      int at = indexOf(p);
      if (at < 0 && size == MAX_POINTS_PER_VERTEX) {
        at = 0; // the least recent makes room
      }
      if (at >= 0) { // re-inserted as the most recent
        System.arraycopy(parallelism, at + 1, parallelism, at, size - at - 1);
        System.arraycopy(cost, at + 1, cost, at, size - at - 1);
        size--;
      }
      parallelism[size] = p;
      cost[size] = c;
      size++;
    }

    int indexOf(int p) {
      for (int i = 0; i < size; i++) {
        if (parallelism[i] == p) {
          return i;
        }
      }
      return -1;
    }
  }

  /**
   * Records the latest measured cost at the vertex's current parallelism; {@code position} is the
   * vertex's in the estimate.
   */
  void observe(int position, VertexEstimate v) {
    if (v.source() || !v.determined() || v.trueProcessingRatePerInstance().isEmpty()) {
      return;
    }
    Points points = costs.at(position, v.vertexId(), Points::new);
    points.put(v.currentParallelism(), 1 / v.trueProcessingRatePerInstance().getAsDouble());
  }

  /**
   * The fitted curve, if the vertex ran at two or more parallelisms and the cost at the largest
   * exceeds the cost at the smallest by more than {@code tolerance} (relative): otherwise DS2's
   * linear assumption holds within measurement noise. {@code position} is the vertex's in the
   * estimate.
   */
  Optional<CostCurve> curve(int position, String vertexId, double tolerance) {
    Points points = costs.find(position, vertexId);
    if (points == null || points.size < 2) {
      return Optional.empty();
    }
    int lowAt = 0;
    int highAt = 0;
    for (int i = 1; i < points.size; i++) {
      lowAt = points.parallelism[i] < points.parallelism[lowAt] ? i : lowAt;
      highAt = points.parallelism[i] > points.parallelism[highAt] ? i : highAt;
    }
    if (points.cost[highAt] <= points.cost[lowAt] * (1 + tolerance)) {
      return Optional.empty();
    }
    SimpleRegression fit = new SimpleRegression();
    for (int i = 0; i < points.size; i++) {
      fit.addData(points.parallelism[i], points.cost[i]);
    }
    // A non-positive intercept means the points are too noisy to extrapolate from.
    if (fit.getSlope() <= 0 || fit.getIntercept() <= 0) {
      return Optional.empty();
    }
    return Optional.of(
        new CostCurve(
            fit.getIntercept(),
            fit.getSlope(),
            points.parallelism[lowAt],
            points.parallelism[highAt]));
  }
}
