package io.ds2.whatif;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.window.SubtaskSample;
import io.ds2.recording.ReadErrors;
import io.ds2.recording.RecordingFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Parsing of the DS2 reference's CSV files and rate lines, and the counters built from them. */
final class ReferenceRates {
  private ReferenceRates() {}

  /** One non-comment CSV line, split and trimmed; {@code where} is {@code file:line}. */
  record CsvLine(String where, String[] fields) {}

  /**
   * One line of the rates log: an operator instance's rates over the window starting at {@code
   * start} (records/s).
   */
  record Line(
      String where,
      String operator,
      String instance,
      Instant start,
      double trueProcessing,
      double trueOutput,
      double observedProcessing,
      double observedOutput) {}

  /** All lines of a small CSV file (topology, source rates), each with exactly {@code columns}. */
  static List<CsvLine> csv(Path path, int columns) {
    List<String> lines;
    try {
      lines = Files.readAllLines(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new RecordingFormatException(path + ": no such file");
    } catch (IOException e) {
      throw new RecordingFormatException(path + ": cannot read: " + ReadErrors.io(e));
    }
    List<CsvLine> result = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String text = lines.get(i).strip();
      if (text.isEmpty() || text.startsWith("#")) {
        continue;
      }
      result.add(new CsvLine(path + ":" + (i + 1), split(text, columns, path + ":" + (i + 1))));
    }
    if (result.isEmpty()) {
      throw new RecordingFormatException(path + ": no data lines");
    }
    return result;
  }

  static Line parse(String text, String where, Map<String, Integer> instances) {
    String[] f = split(text.strip(), 8, where);
    Integer expected = instances.get(f[0]);
    if (expected == null) {
      throw new RecordingFormatException(where + ": operator " + f[0] + " is not in the topology");
    }
    int total = positiveInt(f[2], where + ": total instances");
    if (total != expected) {
      throw new RecordingFormatException(
          where
              + ": operator "
              + f[0]
              + " has "
              + total
              + " instances here but "
              + expected
              + " in the topology");
    }
    long nanos;
    try {
      nanos = Long.parseLong(f[3]);
    } catch (NumberFormatException e) {
      throw new RecordingFormatException(
          where + ": timestamp '" + f[3] + "' is not an integer (ns)");
    }
    if (nanos < 0) {
      throw new RecordingFormatException(where + ": timestamp " + nanos + " is negative");
    }
    return new Line(
        where,
        f[0],
        f[1],
        Instant.ofEpochSecond(0, nanos),
        rate(f[4], where + ": true processing rate"),
        rate(f[5], where + ": true output rate"),
        rate(f[6], where + ": observed processing rate"),
        rate(f[7], where + ": observed output rate"));
  }

  static int positiveInt(String text, String what) {
    try {
      int n = Integer.parseInt(text);
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new RecordingFormatException(what + " is '" + text + "', expected an integer >= 1");
  }

  static double rate(String text, String what) {
    try {
      double r = Double.parseDouble(text);
      if (r >= 0 && Double.isFinite(r)) {
        return r;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new RecordingFormatException(what + " is '" + text + "', expected a number >= 0");
  }

  private static String[] split(String text, int columns, String where) {
    String[] f = text.split(",", -1);
    if (f.length != columns) {
      throw new RecordingFormatException(
          where + ": " + f.length + " comma-separated fields, expected " + columns);
    }
    for (int i = 0; i < f.length; i++) {
      f[i] = f[i].strip();
      if (f[i].isEmpty()) {
        throw new RecordingFormatException(where + ": field " + (i + 1) + " is empty");
      }
    }
    return f;
  }

  /**
   * Cumulative counters per operator instance, advanced window by window from the rates: what
   * Flink's counters would have read had it run the job.
   */
  static final class Counters {
    // operator -> instance id -> {in, out, busy ms, idle ms}
    private final Map<String, TreeMap<String, double[]>> byOperator = new HashMap<>();
    private final JobGraph graph;

    Counters(JobGraph graph) {
      this.graph = graph;
    }

    void add(List<Line> window, double seconds) {
      for (Line l : window) {
        double[] c =
            byOperator
                .computeIfAbsent(l.operator(), k -> new TreeMap<>())
                .computeIfAbsent(l.instance(), k -> new double[4]);
        boolean source = graph.isSource(l.operator());
        double in = source ? 0 : l.observedProcessing() * seconds;
        // DS2's own selectivity, true output over true processing rate, where the log has it;
        // else the observed ratio.
        double out =
            !source && l.trueProcessing() > 0
                ? in * l.trueOutput() / l.trueProcessing()
                : l.observedOutput() * seconds;
        // Busy time: records over the true rate (records per busy second); sources by output.
        double useful = source ? out : in;
        double trueRate = source ? l.trueOutput() : l.trueProcessing();
        double busy = trueRate > 0 ? Math.min(seconds, useful / trueRate) : 0;
        c[0] += in;
        c[1] += out;
        c[2] += busy * 1000;
        c[3] += (seconds - busy) * 1000;
      }
    }

    /** The {@code index}-th instance (by instance id) of {@code operator}. */
    SubtaskSample subtask(String operator, int index) {
      TreeMap<String, double[]> instances = byOperator.getOrDefault(operator, new TreeMap<>());
      double[] c =
          instances.size() > index ? new ArrayList<>(instances.values()).get(index) : new double[4];
      return SubtaskSample.of(index, c[0], c[1], c[2], c[3], 0);
    }
  }
}
