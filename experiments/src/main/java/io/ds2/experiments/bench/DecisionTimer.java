package io.ds2.experiments.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/** Wall time of each decision computation, for the "decision compute time" column. */
public final class DecisionTimer {
  private final List<Long> nanos = new ArrayList<>();

  public synchronized void add(long n) {
    nanos.add(n);
  }

  /** Median in microseconds, empty if nothing was decided. */
  public synchronized OptionalDouble medianMicros() {
    if (nanos.isEmpty()) {
      return OptionalDouble.empty();
    }
    List<Long> sorted = new ArrayList<>(nanos);
    sorted.sort(Long::compare);
    return OptionalDouble.of(sorted.get(sorted.size() / 2) / 1000.0);
  }

  public synchronized int count() {
    return nanos.size();
  }
}
