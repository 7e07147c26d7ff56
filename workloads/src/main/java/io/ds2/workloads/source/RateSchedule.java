package io.ds2.workloads.source;

import java.io.Serializable;
import java.util.List;

/**
 * A piecewise-constant rate over time: phase i runs from {@code startSeconds[i]} at {@code
 * rates[i]} records/s (whole source vertex) until the next phase starts.
 */
public record RateSchedule(List<Phase> phases) implements Serializable {
  public record Phase(double startSeconds, double ratePerSecond) implements Serializable {}

  public RateSchedule {
    if (phases.isEmpty() || phases.get(0).startSeconds() != 0) {
      throw new IllegalArgumentException("a schedule starts with a phase at 0 s");
    }
    phases = List.copyOf(phases);
  }

  public static RateSchedule constant(double ratePerSecond) {
    return new RateSchedule(List.of(new Phase(0, ratePerSecond)));
  }

  /** The same schedule with one more phase from {@code atSeconds} on. */
  public RateSchedule then(double atSeconds, double ratePerSecond) {
    var more = new java.util.ArrayList<>(phases);
    more.add(new Phase(atSeconds, ratePerSecond));
    return new RateSchedule(more);
  }

  public double rateAt(double seconds) {
    double rate = phases.get(0).ratePerSecond();
    for (Phase p : phases) {
      if (p.startSeconds() <= seconds) {
        rate = p.ratePerSecond();
      }
    }
    return rate;
  }

  /** Records scheduled between {@code from} and {@code to} seconds. */
  public double integral(double from, double to) {
    double total = 0;
    for (int i = 0; i < phases.size(); i++) {
      double start = Math.max(from, phases.get(i).startSeconds());
      double end =
          Math.min(to, i + 1 < phases.size() ? phases.get(i + 1).startSeconds() : Double.MAX_VALUE);
      if (end > start) {
        total += (end - start) * phases.get(i).ratePerSecond();
      }
    }
    return total;
  }
}
