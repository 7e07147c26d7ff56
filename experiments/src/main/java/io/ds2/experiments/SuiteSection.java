package io.ds2.experiments;

import io.ds2.experiments.bench.Saso;
import io.ds2.experiments.bench.Scenario;
import io.ds2.experiments.bench.SuiteReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The side-by-side SASO section of RESULTS.md: one row per scenario and controller showing the
 * median of its repeats, with their range.
 */
final class SuiteSection {
  private static final List<String> CONTROLLERS =
      List.of("ds2", "ds2-paper", "flink-as-1.10-matched", "flink-as-1.10");

  private SuiteSection() {}

  /** Every run of one scenario under one controller. */
  record Cell(String scenario, String controller, List<Saso.Result> runs) {
    /** The run shown: median rescale steps, then median slot-seconds. */
    Saso.Result median() {
      List<Saso.Result> sorted =
          runs.stream()
              .sorted(
                  Comparator.comparingInt(Saso.Result::steps)
                      .thenComparingDouble(Saso.Result::slotSeconds))
              .toList();
      return sorted.get((sorted.size() - 1) / 2);
    }

    String spread() {
      if (runs.size() == 1) {
        return "1";
      }
      var steps = runs.stream().mapToInt(Saso.Result::steps).summaryStatistics();
      var slots = runs.stream().mapToDouble(Saso.Result::slotSeconds).summaryStatistics();
      long oracle = runs.stream().filter(Saso.Result::reachedOracle).count();
      return fmt(
          "%d: steps %d-%d, slot-s %.0f-%.0f, oracle in %d",
          runs.size(), steps.getMin(), steps.getMax(), slots.getMin(), slots.getMax(), oracle);
    }
  }

  static List<Scenario> scenarios() {
    return Stream.of(Scenario.suite(), Scenario.nexmark(), Scenario.stress())
        .flatMap(List::stream)
        .toList();
  }

  /** The cells of the runs stored in {@code dir} (its runs.json); none if it has none. */
  static List<Cell> stored(Path dir) throws IOException {
    Path runs = dir.resolve("runs.json");
    return java.nio.file.Files.exists(runs) ? cells(SuiteReport.read(runs)) : List.of();
  }

  static List<Cell> cells(List<Saso.Result> runs) {
    List<String> order = new ArrayList<>(scenarios().stream().map(Scenario::name).toList());
    runs.stream().map(Saso.Result::scenario).filter(n -> !order.contains(n)).forEach(order::add);
    Map<String, Cell> cells = new LinkedHashMap<>();
    for (String scenario : order) {
      runs.stream()
          .filter(r -> r.scenario().equals(scenario))
          .sorted(Comparator.comparingInt(r -> rank(r.controller())))
          .forEach(
              r ->
                  cells
                      .computeIfAbsent(
                          scenario + "\n" + r.controller(),
                          k -> new Cell(scenario, r.controller(), new ArrayList<>()))
                      .runs()
                      .add(r));
    }
    return List.copyOf(cells.values());
  }

  private static int rank(String controller) {
    int i = CONTROLLERS.indexOf(controller);
    return i < 0 ? CONTROLLERS.size() : i;
  }

  static void render(StringBuilder md, Path dir) throws IOException {
    List<Cell> cells = cells(SuiteReport.read(dir.resolve("runs.json")));
    md.append(
        """
        ## Autoscaling side by side (SASO)

        *Measured before issue 29 (commits up to 15f287f): every operator in a vertex of its own
        (chaining disabled) and sources at a fixed parallelism, the jobs' oracles 3/4/2, 6/8/4,
        10/25, 6. The jobs are now chained and their sources sized (the Kafka-fed suite above was
        re-run for ds2 on them); these rows are not re-run yet.*

        Each run: a fresh MiniCluster (2 TaskManagers x 12 slots; 2 x 16 for Nexmark and the word count, adaptive
        scheduler, 1 s metric refresh), one job with controlled per-record costs (sleep with a
        cost-debt accumulator, so capacity scales linearly on 2 cores) and so a closed-form oracle,
        one controller, load phases stepped on a wall-clock schedule, a 1 Hz ds2 recording of the
        job with every rescale as an event (`results/suite/*.jsonl.gz`), a CSV of parallelism
        against the oracle per second and a plot (`*.csv`, `*.png`). Every controller rescales
        through the same REST rescale (all vertices, verified). Controllers:
        - **ds2**: this project, with matched settings (10 s windows after a 5 s warm-up,
          activation 1, scale-down delay 30 s; otherwise its defaults).
        - **ds2-paper**: the DS2 paper's equations (the same estimate) with the reference scaling
          manager's rules: act once `activation` windows ask, apply the latest recommendation at
          once, ignore a scale-down by exactly one; no delay, no step limits, no learned curve.
        - **flink-as-1.10-matched**: the Flink Kubernetes Operator's autoscaler, the library
          `flink-autoscaler:1.10.0` itself, driven through its own interfaces (REST collector,
          evaluator, executor, in-memory state) in a child JVM, every 2 s, with metrics window 10 s,
          stabilization 5 s, target utilization 1.0 (boundary 0.1), scale-down interval 30 s,
          catch-up 0, restart time 5 s. Each call gets a fresh context (the job's live status, a
          copy of the configuration), as the operator builds one per reconcile; its own log, at
          INFO, is next to each run's recording (`results/suite/*.log`).
        - **flink-as-1.10**: the same library with its defaults (5 min stabilization, 15 min
          window) every 10 s.
        - **oracle**: the static optimum; its slot-seconds are given in every row.

        These runs were recorded before ds2 fitted a source's arrival over earlier windows of the
        run (and, after a rescale, of the run before) and learnt a lower utilization from a
        capacity shortfall (all found on the Kafka feed above, where every ds2 row is
        re-measured); they are not re-run here.

        *These runs are mostly not valid by the Kafka-fed suite's test* (the *valid* column: an
        overload must show at the sources, back-pressured or lagging, within 30 s): with Flink's
        default network buffers and 13-byte records the overflow sits in buffers and the sources
        see nothing. They are kept for the demo, the CI smoke test and the Nexmark queries, which
        have no Kafka feed yet; the section above is the comparison that counts.

        Columns: *runs* = how many repeats the row stands for (the row shows the median run: median
        steps, then median slot-seconds; with more than one, the range over the runs and how many
        reached the oracle); *steps* = applied rescales per load phase; *last* = seconds from the
        phase start to its last rescale; *final* = parallelism of the operators at the end of the
        phase (bold when it is the oracle: the smallest parallelism at which every operator's
        busiest subtask keeps up, from Flink's key-group assignment of the job's real keys, busy
        below 98 %); *keeps up* = measured from the run's own counters over the last 60 s of each
        phase: each source's backlog not growing (by more than 1 % of its share of the demand),
        its growth being what arrives less what the source read per second of its own task time,
        or its lag gauge's growth if larger (a lag gauge alone can hide a backlog: a Kafka
        consumer at its default fetch holds what it fetched uncounted), and no operator subtask
        98 % busy or more, unless the backlog shrinks (then busy subtasks are draining what built
        up before); with the busiest operator and its busiest subtask's busy time
        (`?`: a rescale less than 20 s before the phase ended); *slot-s* = slot-seconds with slot sharing (the widest
        vertex), against the static oracle's; *under* = seconds any operator ran below its oracle;
        *decide* = median wall time of one decision (for the Flink autoscaler: one `scale()` call,
        which includes its REST metric collection).

        """);
    if (cells.isEmpty()) {
      md.append("No suite results yet.\n\n");
      return;
    }
    md.append(
        "| scenario | controller | runs | valid | steps | last (s) | final vs oracle | keeps up | slot-s (oracle) | under (s) | decide |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Cell c : cells) {
      row(md, c);
    }
    behind(md, cells);
    scenarioList(md);
    md.append(
        "\nPlots (parallelism per operator, solid, against the oracle, dashed; first run):\n\n");
    for (Cell c : cells) {
      md.append(
          fmt(
              "![%s %s](results/suite/%s__%s.png)\n",
              c.scenario(), c.controller(), c.scenario(), c.controller()));
    }
    md.append(
        """

        For reference, the DS2 paper (OSDI'18) on its word count: DS2 reached its optimum (10 / 20, even keys)
        in 1 step; Dhalion needed 6 steps and about 2,000 s and ended at 22 / 30. On Nexmark, DS2
        converged in 1, 2 and 3 steps in 19, 14 and 3 of 36 runs (Table 4). Its times include Flink
        1.4 restarts of 30-50 s; compare steps and configurations, not seconds.

        """);
  }

  private static void row(StringBuilder md, Cell c) {
    Saso.Result r = c.median();
    md.append(
        fmt(
            "| %s | %s | %s | %s | %s | %s | %s | %s | %.0f (%.0f) | %.0f | %s |\n",
            r.scenario(),
            r.controller(),
            c.spread(),
            valid(r),
            r.phases().stream()
                .map(p -> String.valueOf(p.steps()))
                .collect(Collectors.joining(" / ")),
            r.phases().stream()
                .map(p -> p.steps() == 0 ? "-" : fmt("%.0f", p.settleSeconds()))
                .collect(Collectors.joining(" / ")),
            r.phases().stream().map(SuiteSection::finalVsOracle).collect(Collectors.joining("; ")),
            r.phases().stream().map(p -> keepsUp(p.keepsUp())).collect(Collectors.joining("; ")),
            r.slotSeconds(),
            r.oracleSlotSeconds(),
            r.underProvisionedSeconds(),
            r.decisionMedianMicros() == null
                ? "-"
                : fmt("%.2f ms", r.decisionMedianMicros() / 1000)));
  }

  /**
   * Whether the run's overloads showed at the sources within 30 s: "no" when one did not, "-" when
   * no phase started overloaded (or the controller acted before it could show).
   */
  static String valid(Saso.Result r) {
    if (!r.valid()) {
      return "**no**";
    }
    return r.phases().stream().anyMatch(p -> Boolean.TRUE.equals(p.overloadShown())) ? "yes" : "-";
  }

  /** Per phase: yes, or no with the busiest vertex and its busiest subtask's busy time. */
  static String keepsUp(io.ds2.experiments.bench.KeepsUp.Verdict v) {
    if (v == null) {
      return "?";
    }
    if (v.keepsUp() == null) { // restarted too late in the phase to be measured
      return fmt("? (%.0f s of counters after the last rescale)", v.seconds());
    }
    String busiest = fmt("%s %.0f %%", v.busiestVertex(), 100 * v.busiest());
    if (v.keepsUp()) {
      return "yes (" + busiest + ")";
    }
    return fmt("**no** (%s, backlog %+.0f/s)", busiest, v.backlogGrowth());
  }

  /** Every scenario where ds2's median run is behind a peer's on steps or slot-seconds. */
  private static void behind(StringBuilder md, List<Cell> cells) {
    md.append("\nWhere ds2 is not ahead of a peer on steps or slot-seconds (median runs):\n\n");
    boolean any = false;
    for (Cell oursCell : cells) {
      if (!oursCell.controller().equals("ds2")) {
        continue;
      }
      Saso.Result ours = oursCell.median();
      for (Cell peerCell : cells) {
        if (!peerCell.scenario().equals(ours.scenario()) || peerCell.controller().equals("ds2")) {
          continue;
        }
        Saso.Result peer = peerCell.median();
        List<String> behind = new ArrayList<>();
        if (ours.steps() > peer.steps()) {
          behind.add(fmt("%d steps vs %d", ours.steps(), peer.steps()));
        }
        if (Math.round(ours.slotSeconds()) > Math.round(peer.slotSeconds())) {
          behind.add(fmt("%.0f slot-s vs %.0f", ours.slotSeconds(), peer.slotSeconds()));
        }
        if (!behind.isEmpty()) {
          any = true;
          md.append(
              fmt(
                  "- %s vs %s: %s%s (seconds under-provisioned: ds2 %.0f, %s %.0f).\n",
                  ours.scenario(),
                  peer.controller(),
                  String.join(", ", behind),
                  peer.reachedOracle() ? "" : "; the peer never reached the oracle",
                  ours.underProvisionedSeconds(),
                  peer.controller(),
                  peer.underProvisionedSeconds()));
        }
      }
    }
    md.append(any ? "\n" : "- none.\n\n");
    md.append(
        """
        Fewer slot-seconds are no merit when a controller stays under-provisioned (the *under*
        column): Flink autoscaler 1.10.0 sizes from its own band and observed rates and, on these
        short runs, stops short of the oracle. Where ds2 uses more slot-seconds than a peer that did
        reach the oracle, it is ds2's scale-down delay (30 s here, 5 min by default): it keeps the
        larger configuration until the lower recommendation has held, a guard against flapping that
        costs slot-seconds in a two-minute run; the DS2 paper's rules scale down at once (and, by
        ignoring scale-downs of exactly one instance, may stop above the oracle).

        The oracles are key-group exact (the smallest parallelism whose busiest subtask, under
        Flink's assignment of the workload's real keys, is busy below 98 %), and the *keeps up*
        column measures each run by its own counters. Runs recorded before an oracle changed are
        rescored from their recordings (`bin/ds2-bench rescore`).

        Keyed vertices: with keys 0..4095 at max parallelism 128 the word count's Count needs 25,
        not DS2's 20: DS2's policy stops at 10/20 and Count's busiest subtask stays 100 % busy
        (the overflow sits in network buffers, so no source backlog shows it); ds2 goes 1 -> 22
        (even key groups assumed, nothing known at parallelism 1) -> 25 -> 26 in these 10 s
        windows and keeps up, one instance above the oracle (its keys cycle every 8.4 s, so a 10
        s window sees some key groups twice: the MiniCluster test with 30 s windows goes 1 -> 22
        -> 25). On sub-linear (keyed Work) ds2 reaches 6 and keeps up; DS2's 5 leaves a subtask
        saturated. With a hot key (nexmark-q5-skew) ds2 reaches 8 and keeps up; DS2 stays at 5;
        the Flink autoscaler also ends at 8 (a divisor of 128).

        Nexmark's joins (Q3, Q8) key by person, and an auction's seller is one of the last thousand
        people: about a thousand keys are live at a time, and their key groups differ by a third.
        The oracles count that spread from the generator's own events over each phase's last
        minute (Q3 24, not the even spread's 22; Q8 11, not 10; bids' million ids spread within a
        few percent: Q5 17, not 16). Until this run the generator clamped new sellers to person 0,
        one hot key for the first thousand epochs — and, since these synthetic sources start again
        from event 0 after every rescale (no checkpoints), after every rescale: Q3 and Q8 were run
        again for every controller but the Flink autoscaler at its defaults (which never rescales).

        Where ds2 is behind: on Q3 it ends at 32 for 24 (busiest subtask 69 %), as the Flink
        autoscaler does (32, a divisor of 128); on Q5 at 19 for 17. A 10 s window of Q3 brings about
        a hundred records per subtask, whose chance scatter (a tenth of a share) ds2 takes for skew
        and sizes for. Taking that sampling noise out (James-Stein shrinkage of each window's shares
        towards the key groups' even shares) was tried: ds2 then stops at 22, whose busiest subtask
        is 98 % busy — not keeping up — because ds2 sizes a subtask for 100 % of an instance
        (target utilization 1.0) while the keeps-up test calls 98 % saturated. Both together
        (sizing the busiest subtask for at most 95 % busy) were tried as well: Q3 then went 8 -> 22
        -> 26 -> 27 and Q8 8 -> 11 -> 12 -> 13, each last step on one window's scatter within 12 s
        of the phase's end, and the demo's fan-in Join, whose subtasks count thousands of records a
        window, went to 5 where 4 keeps up (busiest 96-97 %): a fixed mark is too tight where the
        windows are precise and too loose where they are not. Not kept; the margin should come
        from each window's own scatter. On Q8 ds2 ends at 12 for 11 and keeps up (86 %); DS2's
        policy stops below the oracle on Q3, Q5 and Q8 and does not keep up.
        """);
  }

  private static void scenarioList(StringBuilder md) {
    md.append("\nScenarios:\n");
    for (Scenario s : scenarios()) {
      List<String> phases = new ArrayList<>();
      for (int i = 0; i < s.phases().size(); i++) {
        phases.add("x" + s.phases().get(i).factor() + " " + s.oracle(i));
      }
      md.append(
          fmt(
              "- **%s**: %s. Oracle per phase: %s.\n",
              s.name(), s.description(), String.join(", ", phases)));
    }
  }

  static String finalVsOracle(Saso.Phase p) {
    String fin =
        p.finalParallelism().values().stream()
            .map(String::valueOf)
            .collect(Collectors.joining("/"));
    String oracle =
        p.oracle().values().stream().map(String::valueOf).collect(Collectors.joining("/"));
    return p.reachedOracle() ? "**" + fin + "**" : fin + " vs " + oracle;
  }

  static String fmt(String f, Object... args) {
    return String.format(Locale.ROOT, f, args);
  }
}
