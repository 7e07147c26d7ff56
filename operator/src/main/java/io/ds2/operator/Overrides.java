package io.ds2.operator;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Flink's {@code pipeline.jobvertex-parallelism-overrides} value: {@code vid:p,vid:p}, written
 * sorted by vertex id so equal requests compare equal.
 */
final class Overrides {
  private Overrides() {}

  static String render(Map<String, Integer> parallelism) {
    return new TreeMap<>(parallelism)
        .entrySet().stream()
            .map(e -> e.getKey() + ":" + e.getValue())
            .collect(Collectors.joining(","));
  }

  /** The parallelism by vertex id, or empty if {@code text} is not in that form. */
  static Optional<Map<String, Integer>> parse(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    Map<String, Integer> p = new TreeMap<>();
    for (String pair : text.split(",")) {
      int colon = pair.lastIndexOf(':');
      if (colon <= 0) {
        return Optional.empty();
      }
      try {
        int n = Integer.parseInt(pair.substring(colon + 1).strip());
        if (n < 1) {
          return Optional.empty();
        }
        p.put(pair.substring(0, colon).strip(), n);
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
    return Optional.of(p);
  }
}
