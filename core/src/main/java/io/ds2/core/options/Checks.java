package io.ds2.core.options;

import java.time.Duration;

/** Range checks for option values; each failure names the option. */
final class Checks {
  private Checks() {}

  static void atLeast(String name, Duration d, Duration min) {
    if (d.compareTo(min) < 0) {
      throw new InvalidOptionException(
          name,
          Durations.format(d),
          min.isZero() ? "must not be negative" : "must be at least " + Durations.format(min));
    }
  }

  static void range(
      String name, double v, double low, boolean lowIncluded, double high, String rule) {
    boolean ok = (lowIncluded ? v >= low : v > low) && v <= high;
    if (!ok) {
      throw new InvalidOptionException(name, String.valueOf(v), rule);
    }
  }

  static boolean parseBoolean(String s) {
    return switch (s.toLowerCase(java.util.Locale.ROOT)) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default -> throw new IllegalArgumentException("expected true or false");
    };
  }
}
