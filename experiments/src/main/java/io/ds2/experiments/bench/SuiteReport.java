package io.ds2.experiments.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Suite results: one readable line per run, and runs.json for the results page. */
public final class SuiteReport {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private SuiteReport() {}

  public static String row(Saso.Result r) {
    String phases =
        r.phases().stream()
            .map(
                p ->
                    String.format(
                        Locale.ROOT,
                        "x%s: %d step(s), last at %.0f s, final %s vs oracle %s%s, %s, lag peak"
                            + " %.0f end %.0f%s",
                        p.factor(),
                        p.steps(),
                        p.settleSeconds(),
                        p.finalParallelism(),
                        p.oracle(),
                        p.reachedOracle() ? "" : " (MISSED)",
                        keepsUp(p.keepsUp()),
                        p.peakLag(),
                        p.endLag(),
                        Boolean.FALSE.equals(p.overloadShown())
                            ? " (INVALID: the overload did not show at the sources in time)"
                            : ""))
            .collect(Collectors.joining("; "));
    return String.format(
        Locale.ROOT,
        "%-16s %-10s #%d %s | slot-s %.0f (oracle %.0f), under-provisioned %.0f s, lagging %.0f s, decisions %d (median %s us)",
        r.scenario(),
        r.controller(),
        r.repeat(),
        phases,
        r.slotSeconds(),
        r.oracleSlotSeconds(),
        r.underProvisionedSeconds(),
        r.laggingSeconds(),
        r.decisions(),
        r.decisionMedianMicros() == null
            ? "-"
            : String.format(Locale.ROOT, "%.0f", r.decisionMedianMicros()));
  }

  /** The keeps-up verdict of a phase in a few words. */
  public static String keepsUp(KeepsUp.Verdict v) {
    if (v == null) {
      return "keeps up: not measured";
    }
    if (v.keepsUp() == null) {
      return String.format(Locale.ROOT, "keeps up: unknown (%.0f s since a restart)", v.seconds());
    }
    return String.format(
        Locale.ROOT,
        "%s (busiest %s %.0f %%, output %.0f %% of demand, backlog %+.0f/s)",
        v.keepsUp() ? "keeps up" : "DOES NOT KEEP UP",
        v.busiestVertex(),
        100 * v.busiest(),
        100 * v.throughput(),
        v.backlogGrowth());
  }

  /**
   * Merges {@code results} into {@code file} (replacing runs of the same scenario, controller and
   * repeat).
   */
  public static void write(Path file, List<Saso.Result> results) throws IOException {
    List<Saso.Result> all = new ArrayList<>(read(file));
    all.removeIf(
        old ->
            results.stream()
                .anyMatch(
                    r ->
                        r.scenario().equals(old.scenario())
                            && r.controller().equals(old.controller())
                            && r.repeat() == old.repeat()));
    all.addAll(results);
    Files.writeString(file, JSON.writeValueAsString(all) + "\n");
  }

  /**
   * The runs of {@code dir} scored from their recordings alone ({@code
   * scenario__controller.jsonl.gz}, {@code __rN} for a repeat), for runs made one at a time ({@code
   * ds2-bench scenario}) that wrote no runs.json: the decisions counted from the recording, their
   * compute time not known.
   */
  public static List<Saso.Result> fromRecordings(
      Path dir, boolean kafka, java.util.function.ToDoubleFunction<String> targetOf)
      throws IOException {
    List<Saso.Result> results = new ArrayList<>();
    List<Path> recordings;
    try (var files = Files.list(dir)) {
      recordings = files.filter(f -> f.toString().endsWith(".jsonl.gz")).sorted().toList();
    }
    for (Path f : recordings) {
      String base = f.getFileName().toString().replace(".jsonl.gz", "");
      String[] parts = base.split("__");
      int repeat = parts.length > 2 ? Integer.parseInt(parts[2].substring(1)) : 1;
      Scenario s = kafka ? Scenario.kafkaByName(parts[0]) : Scenario.byName(parts[0]);
      Saso.Result r =
          Saso.compute(
              s, parts[1], f, new DecisionTimer(), repeat, targetOf.applyAsDouble(parts[1]));
      long decisions;
      try (var lines = new java.util.zip.GZIPInputStream(Files.newInputStream(f))) {
        decisions =
            new String(lines.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                .lines()
                .filter(l -> l.contains("\"kind\":\"decision\""))
                .count();
      }
      results.add(r.withDecisions((int) decisions, null, r.repeat()));
    }
    return results;
  }

  public static List<Saso.Result> read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    return List.of(JSON.readValue(file.toFile(), Saso.Result[].class));
  }
}
