package io.ds2.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The soak's readings by whole cycle of its load: a run of hours has hundreds of readings, and what
 * matters is whether a cycle ends higher than the one before, not the saw-tooth within it.
 */
final class SoakCycles {
  private SoakCycles() {}

  /** What one reading is, from the run's JSON. */
  private enum Reading {
    HEAP("heapAfterGcMiB"),
    THREADS("threads"),
    CONNECTIONS("openConnections"),
    EVENT_ENTRIES("eventEntries"),
    SERIES("metricSeries"),
    JOBS("managedJobs");

    final String field;

    Reading(String field) {
      this.field = field;
    }

    ToDoubleFunction<JsonNode> value() {
      return s -> s.path(field).asDouble();
    }
  }

  /** One whole cycle: its readings and the last one (the counters at its end). */
  record Cycle(double from, double to, List<JsonNode> readings) {
    double min(Reading r) {
      return readings.stream().mapToDouble(r.value()).min().orElse(Double.NaN);
    }

    double max(Reading r) {
      return readings.stream().mapToDouble(r.value()).max().orElse(Double.NaN);
    }

    JsonNode last() {
      return readings.get(readings.size() - 1);
    }
  }

  /** The whole cycles of the run with readings in them, the first (start-up) included. */
  static List<Cycle> all(JsonNode result, double cycleSeconds) {
    double end = result.get("minutes").asDouble() * 60;
    List<Cycle> out = new ArrayList<>();
    for (double a = 0; a + cycleSeconds <= end + 1e-9; a += cycleSeconds) {
      double from = a;
      List<JsonNode> in = new ArrayList<>();
      for (JsonNode s : result.get("samples")) {
        double t = s.get("seconds").asDouble();
        if (t >= from && t < from + cycleSeconds) {
          in.add(s);
        }
      }
      if (!in.isEmpty()) {
        out.add(new Cycle(from, from + cycleSeconds, in));
      }
    }
    return out;
  }

  /** The whole cycles the slopes are fitted over: all but the first. */
  static List<Cycle> of(JsonNode result, double cycleSeconds) {
    List<Cycle> all = all(result, cycleSeconds);
    return all.isEmpty() ? all : all.subList(1, all.size());
  }

  static void render(StringBuilder md, JsonNode result, double cycleSeconds) {
    md.append(
        "| cycle (s) | heap after GC | threads | open connections | event entries | metric series"
            + " | jobs | decisions | rescales | problems |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    List<Cycle> all = all(result, cycleSeconds);
    for (int i = 0; i < all.size(); i++) {
      Cycle c = all.get(i);
      md.append(
          fmt(
              "| %.0f-%.0f%s | %.1f-%.1f MiB | %s | %s | %s | %s | %s | %,d | %,d | %,d |\n",
              c.from(),
              c.to(),
              i == 0 ? " (start-up)" : "",
              c.min(Reading.HEAP),
              c.max(Reading.HEAP),
              range(c, Reading.THREADS),
              range(c, Reading.CONNECTIONS),
              range(c, Reading.EVENT_ENTRIES),
              range(c, Reading.SERIES),
              range(c, Reading.JOBS),
              c.last().get("decisions").asLong(),
              c.last().get("rescales").asLong(),
              c.last().get("problems").asLong()));
    }
  }

  /** The run's summary, from its data: where each reading stayed after the first cycle. */
  static String shows(JsonNode result, double cycleSeconds) {
    List<Cycle> fitted = of(result, cycleSeconds);
    if (fitted.isEmpty()) {
      return "\nThe run is shorter than two cycles: no slope can be fitted.\n";
    }
    return fmt(
        """

        What the run shows (one run): over the %d whole cycles after the first, the heap after
        GC read %.1f-%.1f MiB, the JVM's threads %s, the open connections %s, the operator's
        metric series %s and the events' de-duplication %s entries (each expires 2 min after its
        last use).
        """,
        fitted.size(),
        fitted.stream().mapToDouble(c -> c.min(Reading.HEAP)).min().orElseThrow(),
        fitted.stream().mapToDouble(c -> c.max(Reading.HEAP)).max().orElseThrow(),
        span(fitted, Reading.THREADS),
        span(fitted, Reading.CONNECTIONS),
        span(fitted, Reading.SERIES),
        span(fitted, Reading.EVENT_ENTRIES));
  }

  private static String span(List<Cycle> cycles, Reading r) {
    double lo = cycles.stream().mapToDouble(c -> c.min(r)).min().orElseThrow();
    double hi = cycles.stream().mapToDouble(c -> c.max(r)).max().orElseThrow();
    return lo == hi ? fmt("at %,.0f", lo) : fmt("between %,.0f and %,.0f", lo, hi);
  }

  private static String range(Cycle c, Reading r) {
    double lo = c.min(r);
    double hi = c.max(r);
    return lo == hi ? fmt("%,.0f", lo) : fmt("%,.0f-%,.0f", lo, hi);
  }

  private static String fmt(String f, Object... args) {
    return String.format(Locale.ROOT, f, args);
  }
}
