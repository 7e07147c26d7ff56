package io.ds2.experiments;

import static io.ds2.experiments.SuiteSection.fmt;

import io.ds2.experiments.bench.Saso;
import io.ds2.experiments.bench.SuiteReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The Kafka-fed suite's section of RESULTS.md: the same scenarios read from a real broker with
 * checkpointed offsets, scored by outcome (keeps up, lag) and checked for validity.
 */
final class KafkaSuiteSection {
  private KafkaSuiteSection() {}

  static void render(StringBuilder md, Path dir) throws IOException {
    md.append(
        """
        ## Kafka-fed suite

        The suite's scenarios as production runs them (`bin/ds2-bench suite --feed kafka`): each
        run starts its own single-node Apache Kafka broker (KRaft, in its own JVM) with one topic
        per source (4 partitions, or two per source subtask), a producer per source writing the
        scenario's load schedule as 300-byte records whether or not the job keeps up, and the job
        reading them with Flink's `KafkaSource` with checkpoints every 3 s, so offsets survive every
        rescale and a backlog built before one must be drained after it. The cluster has few,
        small network buffers (4 KiB segments, 2 per channel; debloating on top capped the
        throughput with no vertex busy, so it is off), so an overloaded vertex
        back-pressures its source within seconds and the lag grows in the topic. Settings per
        controller as in the synthetic suite below.

        Columns as there, plus: *valid* = every phase that starts below its oracle showed the
        overload at the sources within 30 s (back-pressured 10 % of the time, or the lag growing by
        1 % of the demand); a run that does not is not scored; *lag* = the sources' consumer lag
        (records) at its peak and at the end of each phase.

        """);
    Path runs = dir.resolve("runs.json");
    List<SuiteSection.Cell> cells =
        Files.exists(runs) ? SuiteSection.cells(SuiteReport.read(runs)) : List.of();
    if (cells.isEmpty()) {
      md.append("No Kafka-fed runs yet.\n\n");
      return;
    }
    md.append(
        "| scenario | controller | runs | valid | steps | final vs oracle | keeps up | lag peak / end | slot-s (oracle) | under (s) |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (SuiteSection.Cell c : cells) {
      Saso.Result r = c.median();
      md.append(
          fmt(
              "| %s | %s | %s | %s | %s | %s | %s | %s | %.0f (%.0f) | %.0f |\n",
              r.scenario(),
              r.controller(),
              c.spread(),
              SuiteSection.valid(r),
              r.phases().stream()
                  .map(p -> String.valueOf(p.steps()))
                  .collect(Collectors.joining(" / ")),
              r.phases().stream()
                  .map(SuiteSection::finalVsOracle)
                  .collect(Collectors.joining("; ")),
              r.phases().stream()
                  .map(p -> SuiteSection.keepsUp(p.keepsUp()))
                  .collect(Collectors.joining("; ")),
              r.phases().stream()
                  .map(p -> fmt("%.0f / %.0f", p.peakLag(), p.endLag()))
                  .collect(Collectors.joining("; ")),
              r.slotSeconds(),
              r.oracleSlotSeconds(),
              r.underProvisionedSeconds()));
    }
    md.append(
        """

        What this feed shows, and where ds2 stands (one run each; `results/kafka-suite/`):
        - Every run is valid: each overload showed at the sources within seconds (the step-down
          starts at its oracle and is not judged). The synthetic suite below mostly is not.
        - **At the oracle the job does not always keep up.** The oracles are the synthetic jobs'
          (the smallest parallelism whose busiest subtask, by the sleep costs and Flink's key
          groups, is below 98 % busy). Fed from Kafka through these small buffers, the fan-in job
          at exactly 3/4/2 and 6/8/4 still falls behind: the DS2 paper's policy reaches both in 1
          and 2 steps and its backlog grows by 23 and 19 records/s (busiest Join 92 % and 96 %);
          ds2 on the step-down ends at 3/4/2 with +14/s. Which parallelism keeps up on this feed
          is not what the oracle says; an oracle measured on the Kafka feed is still to be made.
        - **ds2 does not keep up in every phase here.** Its demand comes from the consumer lag,
          and over 10 s windows that is noisy: the KafkaSource's lag gauge moves in steps of 100 to
          370 records between 1 s polls (it changes per fetch), so the fitted arrival rate came out
          at 545 and 582 sentences/s for 487.5, and 431 for 400 orders/s. Two effects follow: its
          demand-shift rule (the window's early and late arrival rates more than 10 % apart) fired
          in most windows, and each such window is held; and a window that overestimated the
          demand added a late instance (fan-in Join 4 -> 5 at 124 s and 8 -> 9 at 270 s, 14 s and
          9 s before the phases' ends, so their keeps-up is unmeasured; word count Count 26 ->
          32). A shift test and a demand that allow for the fit's own standard error, or a fit over
          more than one window, are the next step. Where ds2 kept up (word count, sub-linear), it
          did with fewer slot-seconds than the Flink autoscaler. The DS2 paper's policy is ahead of
          ds2 on the fan-in: fewer steps (1 / 2 against 2 / 2 up; 1 against 3 down) and fewer
          slot-seconds (1,559 against 1,577 up; 1,422 against 1,574 down), though at the oracle it
          does not keep up either.
        - The Flink autoscaler (matched settings) takes the most steps (5 and 6 on the fan-in) and
          ends far above the oracle (Join 16 for 8, Work 16 for 6, Count 32 for 25), and does not
          keep up on the word count. The DS2 paper's policy needs 12 steps on the word count and
          ends at 10/20, under-provisioned all run.
        - Not run yet on this feed: Nexmark (its generator does not write to Kafka yet), the
          repeats, the Flink autoscaler at its defaults on 25-minute runs and at fast settings with
          a common target utilization.
        """);
    md.append(
        "\nPlots (parallelism per operator against the oracle, the backlog in grey; first run):\n\n");
    for (SuiteSection.Cell c : cells) {
      md.append(
          fmt(
              "![%s %s](results/kafka-suite/%s__%s.png)\n",
              c.scenario(), c.controller(), c.scenario(), c.controller()));
    }
    md.append("\n");
  }
}
