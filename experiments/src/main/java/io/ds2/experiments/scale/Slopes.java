package io.ds2.experiments.scale;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Slopes of a soak's readings, per hour. A soak's load repeats in cycles (demand switches, jobs
 * replaced, faults injected), so its readings saw-tooth within a cycle; a least-squares line
 * through the raw readings turns that saw-tooth into a slope that depends on where the fit starts
 * (one second later turned +282/h into −0.2/h). Fitting one mean per whole cycle removes it: a
 * reading that repeats every cycle has equal means and a slope of exactly 0.
 */
public final class Slopes {
  private Slopes() {}

  /** One whole cycle's readings: its start, end (seconds into the run) and mean. */
  public record Cycle(double fromSeconds, double toSeconds, int readings, double mean) {}

  /** The least-squares slope per hour through the readings, 0 with fewer than two. */
  public static <S> double perHour(
      List<S> samples, ToDoubleFunction<S> seconds, ToDoubleFunction<S> value) {
    SimpleRegression r = new SimpleRegression();
    samples.forEach(s -> r.addData(seconds.applyAsDouble(s), value.applyAsDouble(s)));
    return samples.size() < 2 ? 0 : r.getSlope() * 3600;
  }

  /**
   * The whole cycles of {@code cycleSeconds} from {@code fromSeconds} that end by {@code
   * endSeconds}, each with the mean of the readings taken in it; a cycle without readings is left
   * out.
   */
  public static <S> List<Cycle> cycles(
      List<S> samples,
      ToDoubleFunction<S> seconds,
      ToDoubleFunction<S> value,
      double fromSeconds,
      double cycleSeconds,
      double endSeconds) {
    if (cycleSeconds <= 0) {
      throw new IllegalArgumentException("a cycle must last more than 0 s, not " + cycleSeconds);
    }
    List<Cycle> out = new ArrayList<>();
    for (double a = fromSeconds; a + cycleSeconds <= endSeconds + 1e-9; a += cycleSeconds) {
      double lo = a;
      double hi = a + cycleSeconds;
      double sum = 0;
      int n = 0;
      for (S s : samples) {
        double t = seconds.applyAsDouble(s);
        if (t >= lo && t < hi) {
          sum += value.applyAsDouble(s);
          n++;
        }
      }
      if (n > 0) {
        out.add(new Cycle(lo, hi, n, sum / n));
      }
    }
    return out;
  }

  /**
   * The slope per hour through the means of the whole cycles (each at its middle) from {@code
   * fromSeconds} to {@code endSeconds}: growth from cycle to cycle, not the saw-tooth within one.
   */
  public static <S> double perHourOverCycles(
      List<S> samples,
      ToDoubleFunction<S> seconds,
      ToDoubleFunction<S> value,
      double fromSeconds,
      double cycleSeconds,
      double endSeconds) {
    return perHour(
        cycles(samples, seconds, value, fromSeconds, cycleSeconds, endSeconds),
        c -> (c.fromSeconds() + c.toSeconds()) / 2,
        Cycle::mean);
  }
}
