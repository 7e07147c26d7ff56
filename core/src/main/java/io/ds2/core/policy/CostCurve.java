package io.ds2.core.policy;

import java.util.Locale;

/**
 * A vertex's measured cost per record as a function of its parallelism, {@code cost(p) = a + b p}
 * (seconds per record per instance). DS2 assumes b = 0; coordination overheads, shared resources
 * and skew make b > 0, and DS2 then under-provisions step after step. Two measured parallelisms are
 * enough to fit the line and size for it in one step.
 */
public record CostCurve(double a, double b, int measuredFrom, int measuredTo) {

  public double costAt(int p) {
    return a + b * p;
  }

  /**
   * Fractional instances needed for {@code inputRate} records/s at {@code utilization}: the
   * smallest real p with {@code inputRate x cost(p) <= p x utilization}; infinite when adding
   * instances never catches up.
   */
  public double requiredParallelism(double inputRate, double utilization) {
    double denominator = utilization - inputRate * b;
    return denominator <= 0 ? Double.POSITIVE_INFINITY : inputRate * a / denominator;
  }

  public String describe() {
    return String.format(
        Locale.ROOT,
        "cost per record grows %.1f%% per extra instance (measured at p=%d and p=%d)",
        100 * b / costAt(1),
        measuredFrom,
        measuredTo);
  }
}
