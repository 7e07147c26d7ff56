package io.ds2.core.options;

import java.time.Duration;

/** Durations as operators write them: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}. */
public final class Durations {
  private Durations() {}

  /**
   * @throws IllegalArgumentException naming the accepted forms
   */
  public static Duration parse(String text) {
    String t = text.trim().toLowerCase(java.util.Locale.ROOT);
    int split = 0;
    while (split < t.length() && Character.isDigit(t.charAt(split))) {
      split++;
    }
    String unit = t.substring(split);
    if (split == 0 || split > 12) {
      throw new IllegalArgumentException(
          "expected a whole number with a unit: ms, s, m or h (e.g. 30s)");
    }
    long n = Long.parseLong(t.substring(0, split));
    return switch (unit) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m", "min" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default ->
          throw new IllegalArgumentException(
              "expected a whole number with a unit: ms, s, m or h (e.g. 30s)");
    };
  }

  /** The shortest of the accepted forms that reads back to the same duration. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0 && ms > 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0 && ms > 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }
}
