package io.ds2.experiments;

import static io.ds2.experiments.SuiteSection.fmt;

import io.ds2.experiments.bench.SuiteReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RESULTS.md's long runs: the Flink autoscaler at its defaults and at its documentation's example
 * settings, on Kafka-fed runs long enough for it to act, next to ds2 at its own defaults; with a
 * digest of the autoscaler's own log, so a reader sees why it did what it did.
 */
final class LongRunsSection {
  private static final DateTimeFormatter LOG_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
  private static final int QUOTE_CHARS = 400;

  /** What the runs show (written from the data below; regenerate both together). */
  private static final String FINDINGS =
      """
      What these runs show (one run each; measured with the code before the fix below):
      - **The Flink autoscaler at its defaults acts once, at 20 min**: its log says "Stabilizing
        until" for 5 min, then "Metric window not full until" for 15 min, and at 20:07 it
        rescales 1 -> 6/8/4 (twice the oracle 3/4/2: target utilization 0.7, plus draining the
        591,557 records that built up while it waited, over its 30 min catch-up). The job was
        under-provisioned for 1,210 s and its lag was still 196,854 at the end (draining at
        430/s, so it counts as keeping up). ds2 at its defaults reaches the oracle 3/4/2 at 88 s
        and 4/5/3 at 240 s (it had fallen behind at 3/4/2 with no subtask saturated, the
        capacity shortfall of the Kafka feed), peak lag 42,012, lag 0 from then on.
      - **Where the autoscaler at its defaults is ahead**: slot-seconds (5,921 against ds2's
        8,487; the oracle's 7,197), because it left the job at parallelism 1, falling behind,
        for 20 minutes. ds2 holds 4/5/3 where 3/4/2 is the oracle (busiest Join 79 %).
      - **At the documentation's example settings** (target 0.6), the autoscaler rescales once,
        at 6:08, 1 -> 9/16/6, then logs "All vertex processing rates are within target" every
        loop and delays its scale-downs by an hour; the x2 step at 15 min finds it already
        large enough. ds2 at its defaults at target 0.6 goes 1 -> 5/7/4 at 88 s and, after the
        step, 9/15/8 and 10/16/8 (two rescales 92 s apart): 19,482 slot-seconds against 23,238,
        under-provisioned 154 s against 370 s, peak lag 41,856 against 179,026. Both keep up in
        both phases; both sit far above the oracle, which is sized for 98 % busy, not 60 %.
      - **A bug these runs found, fixed after them**: ds2's *steps* column counts empty
        rescales. When a scale-down of the Sink had waited out its delay, the pointwise rule
        (a Sink fed FORWARD by a Join of 5 must stay at 3) took it back, and the loop still
        requested the running parallelism, every 6 minutes: 4 of ds2's 6 steps on fanin-long and
        3 of its 6 on the step-up are such requests (each applied in 3 ms, no restart, no
        downtime). It now holds instead (`aScaleDownThePointwiseRuleTakesBackIsNoRescale`);
        the runs are not repeated yet, so the rows show the figures as measured.
      - Not run yet: Nexmark Q5 for 30 min (`nexmark-q5-long`, wired), the DS2 paper's policy
        at target 0.6, repeats.
      """;

  private LongRunsSection() {}

  static void render(StringBuilder md, Path dir) throws IOException {
    md.append(
        """
        ## Long runs at documented settings

        ```bash
        bin/ds2-bench suite --feed kafka --scenarios fanin-long --controllers flink-as-1.10,ds2-defaults --out experiments/results/long-runs   # ~62 min
        bin/ds2-bench suite --feed kafka --scenarios fanin-step-up-long --controllers flink-as-1.10-doc,ds2-defaults-u0.6 --out experiments/results/long-runs   # ~62 min
        bin/ds2-bench suite --feed kafka --scenarios nexmark-q5-long --controllers flink-as-1.10,ds2-defaults --out experiments/results/long-runs   # ~62 min
        ```

        Kafka-fed as above, 30 minutes per run, every controller at the settings its users
        start from:
        - **flink-as-1.10**: the autoscaler library at its defaults (5 min stabilization, 15 min
          metrics window, target utilization 0.7 with boundary 0.3, catch-up 30 min, restart
          time 5 min, scale-down delayed 1 h), its loop every 10 s as in its standalone mode.
          Its first decision comes 20 min after the job starts, and 20 min after each rescale.
        - **flink-as-1.10-doc**: its documentation's basic configuration example (1 min
          stabilization, 5 min window, target 0.6 with boundary 0.2, restart time 2 min,
          catch-up 5 min; the rest default): a decision at the earliest 6 min after a (re)start.
        - **ds2-defaults**: ds2 at its defaults (30 s windows after a 30 s warm-up, polled every
          2 s, activation 2, target utilization 1.0, scale-down delay 5 min);
          **ds2-defaults-u0.6** the same at target utilization 0.6, the example's.

        Scenarios: **fanin-long**, the fan-in job from parallelism 1 at its base rate for 30 min
        (oracle 3/4/2); **fanin-step-up-long**, the same with the rate doubled at 15 min (oracle
        3/4/2, then 6/8/4); **nexmark-q5-long**, Nexmark Q5 (bids keyed by auction, sliding
        window count) from parallelism 8 for 30 min (oracle 19 over its last minute, whose
        bids' key groups are less even than those of the 100 s run's, where it is 17). Columns as in the Kafka-fed
        suite.

        """);
    Path runs = dir.resolve("runs.json");
    List<SuiteSection.Cell> cells =
        Files.exists(runs) ? SuiteSection.cells(SuiteReport.read(runs)) : List.of();
    if (cells.isEmpty()) {
      md.append("No long runs yet.\n\n");
      return;
    }
    KafkaSuiteSection.table(md, cells);
    md.append("\n").append(FINDINGS).append("\n");
    for (SuiteSection.Cell c : cells) {
      Path log = dir.resolve(c.scenario() + "__" + c.controller() + ".log");
      if (c.controller().startsWith("flink-as") && Files.exists(log)) {
        md.append(
            fmt(
                "The autoscaler's log in %s under %s (`results/long-runs/%s`), each kind of line"
                    + " once: minutes after its first line, how often, the first of them:\n\n",
                c.scenario(), c.controller(), log.getFileName()));
        for (Kind k : digest(Files.readAllLines(log, StandardCharsets.UTF_8))) {
          md.append(
              fmt(
                  "- +%s%s: `%s`\n",
                  minutes(k.first),
                  k.count > 1 ? fmt(" (x%d, last +%s)", k.count, minutes(k.last)) : "",
                  k.quote));
        }
        md.append("\n");
      }
    }
    md.append("Plots (parallelism per operator against the oracle, the backlog in grey):\n\n");
    for (SuiteSection.Cell c : cells) {
      md.append(
          fmt(
              "![%s %s](results/long-runs/%s__%s.png)\n",
              c.scenario(), c.controller(), c.scenario(), c.controller()));
    }
    md.append("\n");
  }

  /** One kind of log line: its first occurrence (quoted), when, and how often. */
  static final class Kind {
    final String quote;
    final Duration first;
    Duration last;
    int count;

    Kind(String quote, Duration at) {
      this.quote = quote;
      this.first = at;
      this.last = at;
    }
  }

  /**
   * The log's lines grouped by what they say: the logger and the message with its numbers and times
   * blanked out (a line repeated every loop is one kind). Each scaling report is a kind of its own,
   * and lines without a timestamp (stack traces) are left out.
   */
  static List<Kind> digest(List<String> lines) {
    Map<String, Kind> kinds = new LinkedHashMap<>();
    OffsetDateTime start = null;
    for (String line : lines) {
      int space = line.indexOf(' ');
      int dash = line.indexOf(" - ");
      if (space < 0 || dash < space) {
        continue;
      }
      OffsetDateTime at;
      try {
        at = OffsetDateTime.parse(line.substring(0, space), LOG_TIME);
      } catch (DateTimeParseException e) {
        continue;
      }
      start = start == null ? at : start;
      Duration since = Duration.between(start, at);
      String head = line.substring(space + 1, dash).trim();
      String message = line.substring(dash + 3);
      String logger = head.substring(head.lastIndexOf('.') + 1);
      String level = head.split(" ")[0];
      String key = message.contains("ScalingReport") ? line : logger + " " + blanked(message);
      Kind k =
          kinds.computeIfAbsent(
              key, x -> new Kind(quoted(level + " " + logger + ": " + message), since));
      k.count++;
      k.last = since;
    }
    return new ArrayList<>(kinds.values());
  }

  private static String blanked(String message) {
    StringBuilder b = new StringBuilder(message.length());
    for (int i = 0; i < message.length(); i++) {
      char ch = message.charAt(i);
      b.append(Character.isDigit(ch) ? '#' : ch);
    }
    return b.toString();
  }

  private static String quoted(String s) {
    String one = s.replace('`', '\'');
    return one.length() <= QUOTE_CHARS ? one : one.substring(0, QUOTE_CHARS) + " ...";
  }

  private static String minutes(Duration d) {
    return fmt("%d:%02d", d.toMinutes(), d.toSecondsPart());
  }
}
