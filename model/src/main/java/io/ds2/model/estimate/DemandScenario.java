package io.ds2.model.estimate;

import java.util.Map;

/**
 * The demand a job is sized for: each source's measured demand, scaled by {@code rateScale} (1
 * live; a what-if such as "twice today's traffic" otherwise), except where the user gave a rate.
 *
 * @param givenRates records/s for the whole source vertex, by vertex id; used as given, not scaled
 * @param rateScale factor applied to every inferred demand; finite and greater than 0
 */
public record DemandScenario(Map<String, Double> givenRates, double rateScale) {
  public DemandScenario {
    givenRates = Map.copyOf(givenRates);
    if (!(rateScale > 0) || Double.isInfinite(rateScale)) {
      throw new IllegalArgumentException("rate scale must be a number > 0, was " + rateScale);
    }
    givenRates.forEach(
        (id, rate) -> {
          if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate of " + id + " must be >= 0, was " + rate);
          }
        });
  }

  /** The demand as measured: what the live loop sizes for when the user gives no rate. */
  public static DemandScenario measured() {
    return new DemandScenario(Map.of(), 1);
  }

  public static DemandScenario given(Map<String, Double> rates) {
    return new DemandScenario(rates, 1);
  }

  public static DemandScenario scaled(double factor) {
    return new DemandScenario(Map.of(), factor);
  }
}
