package io.ds2.workloads.source;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live rate factors for generators running in this JVM (the in-process cluster of the demo and
 * tests): every source built with a control key emits its schedule's rate times the key's factor,
 * so a step in load can be made at the moment a test or the demo chooses.
 */
public final class RateControl {
  private static final Map<String, Double> FACTORS = new ConcurrentHashMap<>();

  private RateControl() {}

  public static void set(String key, double factor) {
    if (!(factor >= 0) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException("rate factor must be >= 0, was " + factor);
    }
    FACTORS.put(key, factor);
  }

  public static double factor(String key) {
    return key == null || key.isEmpty() ? 1.0 : FACTORS.getOrDefault(key, 1.0);
  }

  public static void clear(String key) {
    FACTORS.remove(key);
  }
}
