package io.ds2.experiments.bench;

import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * A run's figures from a second on: where a load recurs, from when a controller that learns it may
 * act on it (the diurnal scenario's third day). Before then a forecasting controller is a reactive
 * one, so the whole run's figures blur what forecasting changes.
 *
 * @param fromSeconds where the stretch starts
 * @param sloJudgedSeconds seconds judged by the lag-slope service level ({@link LagSlo#overRun})
 * @param sloBehindSeconds seconds among them with the lag growing by more than 1 % of the demand
 * @param slotSeconds slots held (the widest vertex) times seconds
 * @param rescales rescales applied
 * @param peakLag the sources' largest lag (records)
 * @param underProvisionedSeconds seconds with a vertex below its oracle (the fewest instances that
 *     keep every subtask below 98 % busy): short of capacity, whether or not the lag shows it yet
 * @param ageBehindSeconds seconds with the records' age growing by more than 1 % of the time
 *     ({@link RecordAgeSlo}: what was really sent, not what the schedule had due); null where the
 *     recording keeps no age
 */
public record Stretch(
    double fromSeconds,
    double sloJudgedSeconds,
    double sloBehindSeconds,
    double slotSeconds,
    int rescales,
    double peakLag,
    double underProvisionedSeconds,
    Double ageBehindSeconds) {

  /** The stretch of a run from {@code s.learnedFromSeconds()} on; null where it has none. */
  static Stretch learned(
      Scenario s,
      List<Saso.Point> points,
      List<KeepsUp.Sampled> sampled,
      Set<String> sources,
      List<Double> applied) {
    double from = s.learnedFromSeconds();
    if (from <= 0) {
      return null;
    }
    LagSlo.Verdict slo = LagSlo.overRun(points, sampled, sources, s, from);
    double slotSeconds = 0;
    double peakLag = 0;
    double under = 0;
    for (int i = 0; i < points.size(); i++) {
      Saso.Point a = points.get(i);
      if (a.t() >= from) {
        peakLag = Math.max(peakLag, a.pending());
        double dt = i + 1 < points.size() ? points.get(i + 1).t() - a.t() : 0;
        slotSeconds += a.slots() * dt;
        under += Saso.belowOracle(a, s.oracle(a.phase())) ? dt : 0;
      }
    }
    int rescales = (int) applied.stream().filter(t -> t >= from).count();
    OptionalDouble age = RecordAgeSlo.behindSeconds(sampled, sources, from);
    return new Stretch(
        from,
        slo.judgedSeconds(),
        slo.behindSeconds(),
        slotSeconds,
        rescales,
        peakLag,
        under,
        age.isPresent() ? age.getAsDouble() : null);
  }
}
