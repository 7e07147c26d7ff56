package io.ds2.core.estimate;

import java.util.Map;

/**
 * The demand a job is sized for, and what its user says about its sources: each source's measured
 * demand, scaled by {@code rateScale} (1 live; a what-if such as "twice today's traffic"
 * otherwise), except where the user gave a rate.
 *
 * @param givenRates records/s for the whole source vertex, by vertex id; used as given, not scaled
 * @param rateScale factor applied to every inferred demand; finite and greater than 0
 * @param sourceSplits how many splits a source vertex reads, by vertex id or name, where its
 *     metrics do not say ({@code --source-splits}, annotation {@code ds2.io/source-splits}): a
 *     FLIP-27 source other than Kafka's
 */
public record DemandScenario(
    Map<String, Double> givenRates, double rateScale, Map<String, Integer> sourceSplits) {
  public DemandScenario {
    givenRates = Map.copyOf(givenRates);
    sourceSplits = Map.copyOf(sourceSplits);
    if (!(rateScale > 0) || Double.isInfinite(rateScale)) {
      throw new IllegalArgumentException("rate scale must be a number > 0, was " + rateScale);
    }
    givenRates.forEach(
        (id, rate) -> {
          if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate of " + id + " must be >= 0, was " + rate);
          }
        });
    sourceSplits.forEach(
        (id, n) -> {
          if (n < 1) {
            throw new IllegalArgumentException("splits of " + id + " must be >= 1, was " + n);
          }
        });
  }

  public DemandScenario(Map<String, Double> givenRates, double rateScale) {
    this(givenRates, rateScale, Map.of());
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

  /** This scenario, with the split counts of the sources the user named. */
  public DemandScenario withSourceSplits(Map<String, Integer> splits) {
    return new DemandScenario(givenRates, rateScale, splits);
  }
}
