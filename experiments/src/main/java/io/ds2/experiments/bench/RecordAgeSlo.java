package io.ds2.experiments.bench;

import io.ds2.core.window.VertexSample;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The lag-slope service level read from the records' age instead of from the schedule: a job is
 * behind while the age of the records its sources emit (Kafka's emit lag: emission time less the
 * record's timestamp, set when the producer sent it) grows by more than 1 % of the time passing,
 * over the trailing minute. A lag growing by 1 % of a steady demand is an age growing by 1 % of the
 * time, so it is the same criterion as {@link LagSlo}'s; but it is measured on what was really
 * sent, where {@link LagSlo#overRun} sets what the sources read against what the schedule had due.
 * Those differ where the feed does not keep the schedule's clock: on 2026-12-06 every bench's JVM
 * stood still 20 s, the feed's producers paced on a monotonic clock that stood still with them, and
 * the whole load then ran 20 s behind the wall-clock schedule it was scored against. Empty where
 * the sources report no age (recordings made before they kept it).
 */
final class RecordAgeSlo {
  static final double GROWTH_OF_TIME = 0.01;
  // Polls with an age in the trailing minute needed for a trend (the gauge refreshes every 10 s).
  private static final int MIN_POLLS = 5;

  private RecordAgeSlo() {}

  /** Seconds from {@code from} on with the records' age growing faster than 1 % of the time. */
  static OptionalDouble behindSeconds(
      List<KeepsUp.Sampled> sampled, Set<String> sources, double from) {
    List<double[]> ages = new ArrayList<>();
    for (KeepsUp.Sampled p : sampled) {
      OptionalDouble age = oldest(p, sources);
      if (age.isPresent()) {
        ages.add(new double[] {p.t(), age.getAsDouble()});
      }
    }
    if (ages.isEmpty()) {
      return OptionalDouble.empty();
    }
    double behind = 0;
    for (int k = 0; k + 1 < sampled.size(); k++) {
      double t = sampled.get(k).t();
      if (t < Math.max(LagSlo.WARM_UP_SECONDS, from)) {
        continue;
      }
      if (slope(ages, t - LagSlo.TREND_SECONDS, t) > GROWTH_OF_TIME) {
        behind += sampled.get(k + 1).t() - t;
      }
    }
    return OptionalDouble.of(behind);
  }

  /** The oldest record any source's subtask last emitted, in seconds; empty where none says. */
  private static OptionalDouble oldest(KeepsUp.Sampled p, Set<String> sources) {
    double max = -1;
    for (String id : sources) {
      VertexSample v = p.sample().vertices().get(id);
      if (v == null) {
        continue;
      }
      for (OptionalDouble ms : v.emitLagMs()) {
        if (ms.isPresent()) {
          max = Math.max(max, ms.getAsDouble() / 1000);
        }
      }
    }
    return max < 0 ? OptionalDouble.empty() : OptionalDouble.of(max);
  }

  /** Seconds of age per second: the least-squares line through the ages in [from, to]. */
  private static double slope(List<double[]> ages, double from, double to) {
    double n = 0;
    double st = 0;
    double sa = 0;
    double stt = 0;
    double sta = 0;
    for (double[] a : ages) {
      if (a[0] < from || a[0] > to) {
        continue;
      }
      n++;
      st += a[0];
      sa += a[1];
      stt += a[0] * a[0];
      sta += a[0] * a[1];
    }
    double var = n * stt - st * st;
    return n < MIN_POLLS || var == 0 ? 0 : (n * sta - st * sa) / var;
  }
}
