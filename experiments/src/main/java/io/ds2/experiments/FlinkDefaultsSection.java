package io.ds2.experiments;

import io.ds2.experiments.bench.Saso;
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
 * The first pass of the Kafka-fed suite on a cluster left at Flink's defaults (issue 32), kept as
 * an earlier set below {@link DefaultsSuiteSection}; and the tables both render: each row with its
 * slot-seconds against the oracle's and how often the capacity-shortfall rule, built on the tuned
 * bench, held a decision.
 */
final class FlinkDefaultsSection {
  /** What the runs show; written from them (one run each). */
  private static final String NOTES =
      """
      What this first pass shows (one run each, 2026-12-03, measured at 509096a and scored at
      cc4466e; its jobs' Kafka consumers fetched 4 KiB per partition, as on the tuned bench — a
      setting users do not write, removed since, see the last point; ds2 at its own defaults — 30 s windows after a 30 s warm-up, activation 2, a 5 min
      scale-down delay — at target utilization 1.0, and at 0.7 as the headline will compare every
      controller; the oracle is the 1.0 one for both, so a 0.7 row is by design above it):
      - **The capacity-shortfall rule held nothing**: 0 of 46 decisions. On the tuned bench it was
        built for, the chained sub-linear job still held with it; at Flink's buffers busy time did
        not overstate capacity in these runs. Whether it is needed at defaults at all is open
        until the full runs (issue 32).
      - **Demand is measured well from Kafka lag at a 10 s refresh** on the fan-in (401/300, then
        799/600 for 400/300 and 800/600) and the word count (483-486 for 487.5) — better than the
        tuned bench's first windows — **but not on the sub-linear job**: 259, 306, then 599, 432
        and 694/s for ~360; so at 0.7 it went 1 -> 4 -> 15 (9 would do) and at 1.0 1 -> 3 -> 7
        for 6. The cause (found by replaying the recordings): held back by its job, whose buffers
        at Flink's defaults took ~19,000 of its small records, the source stopped polling Kafka and
        its lag gauge stood at one value for up to 30 s while records arrived; fits that took
        those readings in read the flat stretch and the jump after it as a surge. Fixed at b44834b
        (a gauge that has stood 5 s or more is left out of the fit, over a waiting backlog, or at
        zero while the source was held back): replaying these two recordings through the fixed
        estimator (`bin/ds2 whatif --recording ...`), the windows read 353, 296, 469, 360/s (at
        0.7) and 259, 439, 330, 311, 309/s (at 1.0) — worst 30 % off instead of 96 %, still
        short-window noise at a 10 s refresh on this one-partition, held-back source; every
        tuned-bench recording's demand is unchanged. Not re-run yet.
      - ds2's defaults are slow for these short phases (140-300 s): the first decision comes
        after ~90 s (warm-up, two windows for activation), so most rows spend most of the phase
        below the oracle, and their slot-seconds are below the oracle's (0.45-0.84) for that
        reason, not for being lean; the step-down never scales down within its phase (5 min
        delay; at 0.7 it even rose at the phase boundary from a window of the higher load, 1.60 x
        the oracle's slot-seconds). The headline needs the long scenarios at these settings.
      - Exact at 1.0: fan-in 3/1/4 in one step, word count 12/25 in two, few-partitions 4/1 (the
        split limit); the fan-in's second phase ended at 6/1/7 for 6/1/8, keeping up.
      - Two of the bench's own judges were wrong at a 10 s refresh, fixed and every stored run
        rescored (no stored verdict of the tuned runs changed): keeps-up was measured from the
        first poll after a restart, which still shows the old run's counters and no backlog
        gauge (the fan-in at 3/1/4 was judged "backlog +724/s" while its lag drained); and a
        phase's overload had to show at the sources within 30 s, now four refreshes if longer.
        The sub-linear runs are still invalid: its overload did not show at the sources within
        40 s at Flink's buffers.
      - **At Kafka's default fetch, ds2 does not keep up** (one probe run, 2026-12-03 at
        3337f07 plus the harness change that sets it: `bin/ds2-bench scenario --feed kafka
        --scenario fanin-step-up --controller ds2-defaults`, stored in
        `results/kafka-default-fetch-probe/`). On the flink-defaults cluster the jobs' consumers
        now fetch as Kafka's defaults say (1 MiB per partition, as jobs are written). The chained
        `Source: Orders -> Parse`, saturated at parallelism 1 (busy 100 %, reading 150/s of
        400/s), buffers up to 1 MiB (~3,500 records) per partition and fetches a partition again
        only when that is read — at 12.5 records/s per partition, minutes later — so the lag
        gauge measures against a partition head minutes old: records read + lag grew by ~140/s,
        in steps of ~2,750 every 20 s, for 400/s arriving. ds2 took the demand for 144-158/s,
        went to 1/1/2 and 2/1/2 for the oracle's 3/1/4 and 6/1/8, and fell behind (backlog +457/s
        at the end). The same gauge feeds the Flink autoscaler's backlog term. The gauge's
        mechanism, found since (2026-12-04): the consumer sets a partition's lag only as it takes
        that partition's records, so while it reads one partition's 1 MiB fetch (records read +
        lag) stands still, then jumps by the next partition's; what it fetched for the others is
        counted nowhere. ds2 now tells such a gauge and steps the source up (the section above).

      ![fanin-step-up ds2-defaults at Kafka's default fetch](results/kafka-default-fetch-probe/fanin-step-up__ds2-defaults.png)
      """;

  private FlinkDefaultsSection() {}

  static void render(StringBuilder md, Path dir) throws IOException {
    KafkaDefaultFetchSection.section(
        md,
        dir,
        """
        ### Earlier: the first pass at Flink's defaults (2026-12-03)

        The same scenarios and controllers on 2026-12-03's code (`bin/ds2-bench suite --feed
        kafka --cluster flink-defaults --controllers ds2-defaults-u0.7,ds2-defaults`, into
        `experiments/results/kafka-suite-flink-defaults`), its jobs' consumers fetching 4 KiB per
        partition; the section above replaces it. Columns as there.

        """,
        NOTES);
  }

  /**
   * The suite's table of these runs, then per run the seconds behind (the SLO), slot-seconds
   * against the oracle's and the decisions the capacity-shortfall rule held.
   */
  static void tables(StringBuilder md, Path dir, List<SuiteSection.Cell> cells) throws IOException {
    KafkaSuiteSection.table(md, cells);
    md.append(
        "\n| scenario | controller | behind / judged (s) | slot-s / oracle (at its target) |"
            + " shortfall holds / decisions |\n");
    md.append("|---|---|---|---|---|\n");
    for (SuiteSection.Cell c : cells) {
      Saso.Result r = c.median();
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s |\n",
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
              costRatios(r),
              shortfallHolds(dir, r).map(n -> n + " / " + r.decisions()).orElse("-")));
    }
  }

  /**
   * Slot-seconds over the 98 %-busy oracle's, then over the oracle at the controller's own target
   * utilization (the fewest slots that keep every subtask below it), when that target is known.
   */
  static String costRatios(Saso.Result r) {
    String plain = String.format(Locale.ROOT, "%.2f", r.slotSeconds() / r.oracleSlotSeconds());
    return r.targetOracleSlotSeconds() > 0
        ? plain
            + String.format(
                Locale.ROOT,
                " (%.2f at %s)",
                r.slotSeconds() / r.targetOracleSlotSeconds(),
                r.targetUtilization())
        : plain;
  }

  /** Each run's plot. */
  static void plots(StringBuilder md, Path dir, List<SuiteSection.Cell> cells) {
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
