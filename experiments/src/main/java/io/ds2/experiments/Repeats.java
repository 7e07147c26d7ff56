package io.ds2.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** Figures of a benchmark run several times: the median, and the range when there are several. */
final class Repeats {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Repeats() {}

  /** The stored runs: {@code base.json}, then {@code base-r2.json}, {@code base-r3.json}, ... */
  static List<JsonNode> read(Path dir, String base) throws IOException {
    List<JsonNode> runs = new ArrayList<>();
    Path first = dir.resolve(base + ".json");
    if (!Files.exists(first)) {
      return runs;
    }
    runs.add(JSON.readTree(first.toFile()));
    for (int r = 2; Files.exists(dir.resolve(base + "-r" + r + ".json")); r++) {
      runs.add(JSON.readTree(dir.resolve(base + "-r" + r + ".json").toFile()));
    }
    return runs;
  }

  /**
   * The median of {@code values} in {@code format}, followed by the range in brackets when there
   * are several and they differ.
   */
  static String figure(List<Double> values, String format) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(Double::compare);
    int n = sorted.size();
    String m = String.format(Locale.ROOT, format, median(values));
    String lo = String.format(Locale.ROOT, format, sorted.get(0));
    String hi = String.format(Locale.ROOT, format, sorted.get(n - 1));
    return n < 2 || lo.equals(hi) ? m : m + " (" + lo + "–" + hi + ")";
  }

  /** The median of {@code values} (the mean of the middle two for an even count). */
  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(Double::compare);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** {@link #figure} of one field over rows. */
  static String figure(List<JsonNode> rows, ToDoubleFunction<JsonNode> field, String format) {
    List<Double> values = new ArrayList<>();
    for (JsonNode r : rows) {
      values.add(field.applyAsDouble(r));
    }
    return figure(values, format);
  }
}
