package io.ds2.experiments;

import io.ds2.experiments.bench.Saso;
import io.ds2.experiments.bench.SuiteReport;
import io.ds2.recording.Recorded;
import io.ds2.recording.RecordingReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The section of RESULTS.md on a cluster left at Flink's defaults (issue 32): the Kafka-fed suite
 * with {@code --cluster flink-defaults}, each row with its slot-seconds against the oracle's and
 * how often the capacity-shortfall rule, built on the tuned bench, held a decision.
 */
final class FlinkDefaultsSection {
  /** What the runs show; written from them (one run each). */
  private static final String NOTES = "";

  private FlinkDefaultsSection() {}

  static void render(StringBuilder md, Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    md.append(
        """
        ## At Flink's defaults (first pass)

        The Kafka-fed suite's scenarios on a cluster left at Flink's defaults (`bin/ds2-bench suite
        --feed kafka --cluster flink-defaults`): metrics refreshed every 10 s, Flink's network
        buffers (32 KiB segments, 2 per channel and 8 floating per gate), the adaptive
        scheduler's cool-downs (a rescale at most every 30 s); only the adaptive scheduler (for
        the REST rescale) and the network memory a MiniCluster needs for the jobs' channels are
        set. Jobs, topics and producers as in the Kafka-fed suite. Columns as there, plus *behind
        / judged*: per phase, seconds with the sources' lag growing by more than 1 % of the demand
        (least-squares trend over the trailing minute), of the seconds after a 120 s warm-up (the
        ShuffleBench/Theodolite criterion); *slot-s / oracle*; and *shortfall holds* (decisions
        held by `CAPACITY_SHORTFALL`, the rule built on the tuned bench's tiny buffers).

        """);
    Path runs = dir.resolve("runs.json");
    List<SuiteSection.Cell> cells =
        Files.exists(runs) ? SuiteSection.cells(SuiteReport.read(runs)) : List.of();
    if (cells.isEmpty()) {
      md.append("No runs at Flink's defaults yet.\n\n");
      return;
    }
    KafkaSuiteSection.table(md, cells);
    md.append(
        "\n| scenario | controller | behind / judged (s) | slot-s / oracle | shortfall holds /"
            + " decisions |\n");
    md.append("|---|---|---|---|---|\n");
    for (SuiteSection.Cell c : cells) {
      Saso.Result r = c.median();
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %.2f | %s |\n",
              r.scenario(),
              r.controller(),
              r.phases().stream()
                  .map(
                      p ->
                          String.format(
                              Locale.ROOT,
                              "%.0f / %.0f",
                              p.sloBehindSeconds(),
                              p.sloJudgedSeconds()))
                  .collect(Collectors.joining("; ")),
              r.slotSeconds() / r.oracleSlotSeconds(),
              shortfallHolds(dir, r).map(n -> n + " / " + r.decisions()).orElse("-")));
    }
    md.append("\n").append(NOTES).append("\n");
    md.append("Plots (parallelism per operator against the oracle, the backlog in grey):\n\n");
    md.append(
        cells.stream()
            .map(
                c ->
                    String.format(
                        "![%s %s](results/%s/%s__%s.png)\n",
                        c.scenario(),
                        c.controller(),
                        dir.getFileName(),
                        c.scenario(),
                        c.controller()))
            .collect(Collectors.joining()));
    md.append("\n");
  }

  /** Decisions in the run's recording held by the capacity-shortfall rule. */
  static Optional<Long> shortfallHolds(Path dir, Saso.Result r) throws IOException {
    String base =
        r.scenario() + "__" + r.controller() + (r.repeat() == 1 ? "" : "__r" + r.repeat());
    Path file = dir.resolve(base + ".jsonl.gz");
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    long n = 0;
    try (RecordingReader reader = RecordingReader.open(file, true)) {
      for (Optional<Recorded> next = reader.next(); next.isPresent(); next = reader.next()) {
        if (next.get() instanceof Recorded.Event e
            && e.kind().equals("decision")
            && e.details() != null
            && "CAPACITY_SHORTFALL".equals(e.details().path("action").path("code").asText())) {
          n++;
        }
      }
    }
    return Optional.of(n);
  }
}
