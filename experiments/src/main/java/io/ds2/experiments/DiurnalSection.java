package io.ds2.experiments;

import io.ds2.experiments.bench.DiurnalPlot;
import io.ds2.experiments.bench.Saso;
import io.ds2.experiments.bench.Stretch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The forecast's benchmark (issue 33): the diurnal scenario run by ds2 reactive, ds2 acting on its
 * forecast, and the Flink autoscaler, all sizing for 0.7; judged from the third day, when the
 * forecast may act, and over the whole run.
 */
final class DiurnalSection {
  static final String REACTIVE = "ds2-defaults-u0.7";
  static final String PREDICTIVE = "ds2-forecast-u0.7";

  // The bar: behind at most half as long, at most 10 % more slot-seconds, no more rescales.
  private static final double BEHIND_SHARE = 0.5;
  private static final double SLOT_GROWTH = 1.10;

  private DiurnalSection() {}

  private static final String HEADING = "## Forecasting recurring load: the diurnal benchmark\n\n";

  /**
   * The newest runs, with the benchmark's description; beside them the peers' runs stored in {@code
   * peers} (a peer's decisions are not ds2's, so its runs stand for every ds2 commit).
   *
   * @return whether there were any
   */
  static boolean render(StringBuilder md, Path dir, Path peers) throws IOException {
    List<SuiteSection.Cell> peerCells =
        SuiteSection.stored(peers).stream()
            .filter(c -> c.scenario().equals("diurnal"))
            .filter(c -> !c.controller().equals(REACTIVE) && !c.controller().equals(PREDICTIVE))
            .toList();
    return render(md, dir, HEADING + INTRO, DiurnalNotes.LATEST, peerCells, peers);
  }

  /**
   * An earlier set of runs stored in {@code dir}, under its own heading, no peers beside them; with
   * the benchmark's description where {@code described} is false (no newer runs above them).
   *
   * @return whether there were any
   */
  static boolean renderEarlier(StringBuilder md, Path dir, DiurnalEarlier set, boolean described)
      throws IOException {
    return render(
        md,
        dir,
        (described ? "" : HEADING + INTRO) + set.heading,
        (set.notesBeforeRescore ? RESCORED : "") + set.notes,
        List.of(),
        dir);
  }

  /** Said of the earlier sets whose notes were written before their runs were rescored. */
  private static final String RESCORED =
      """
      Rescored on 2026-12-06 with the sources' counters placed without their subtasks' start
      (e9a1584): the table's seconds behind by the schedule are read so; where the notes below
      quote such seconds, they were read before.

      """;

  private static final String INTRO =
      """
        The fan-in job (chained, its Join keyed, Kafka-fed: 12 partitions per source, Kafka's
        default fetch) on a cluster at Flink's defaults, over four compressed days of 20 min
        (night x0.5, a morning ramp to x1 over minutes 6-8, lunch x1.5 from 10 to 11 and back by
        13, the evening down to x0.5 by 15; 5 % noise a minute, the same seeded trace every run).
        Every controller sizes for 0.7: ds2 reactive (`ds2-defaults-u0.7`), ds2 acting on its
        forecast (`ds2-forecast-u0.7`: `--forecast act`, a 20 min period in 1 min steps) and the
        Flink autoscaler at its documentation's example settings (`flink-as-1.10-doc-u0.7`).
        `bin/ds2-bench suite --feed kafka --cluster flink-defaults --scenarios diurnal
        --controllers CONTROLLER --repeats 1,2,3 --out experiments/results/diurnal-latest` (80
        min a run; ds2's six runs, three of each, made at once so that both controllers see one
        machine load; earlier runs are in `experiments/results/diurnal-to-latest`,
        `experiments/results/diurnal-lead`,
        `experiments/results/diurnal-together`,
        `experiments/results/diurnal-sure`,
        `experiments/results/diurnal-wallclock`, `experiments/results/diurnal-headroom` and,
        before 73567e8, `experiments/results/diurnal`). A forecast needs a day to learn from and one to test on, so the runs are judged
        from the third day (2,400 s) on, and over the whole run: *behind* is the lag-slope SLO
        (seconds with the lag growing by more than 1 % of the demand over the trailing minute),
        *under* the seconds with a vertex below the oracle (the fewest instances keeping every
        subtask below 98 % busy: short of capacity, whether or not the lag grew by 1 % yet);
        median with min–max over the runs. No lag peak is shown: at Kafka's default fetch a
        source that keeps up takes all there is at every fetch and its lag gauge reads about 0,
        so behind is also judged on what was sent less what the sources read, both over the
        span their counters cover (see the headline). *By the records' age* is the same
        criterion read from how old the records the sources emit are (their emit lag growing by
        more than 1 % of the time over the trailing minute): what was really sent, whatever the
        schedule said.

        """;

  private static boolean render(
      StringBuilder md,
      Path dir,
      String heading,
      String notes,
      List<SuiteSection.Cell> peerCells,
      Path peers)
      throws IOException {
    List<SuiteSection.Cell> own =
        SuiteSection.stored(dir).stream().filter(c -> c.scenario().equals("diurnal")).toList();
    if (own.isEmpty()) {
      return false;
    }
    List<SuiteSection.Cell> cells = new ArrayList<>(own);
    cells.addAll(peerCells);
    md.append(heading);
    md.append(
        """
        | controller | runs | day 3 on: behind (s of judged) | by the records' age (s) | under (s) | slot-s | rescales | whole run: behind (s of judged) | slot-s | rescales |
        |---|---|---|---|---|---|---|---|---|---|
        """);
    for (SuiteSection.Cell c : cells) {
      List<Saso.Result> runs = c.runs();
      List<Stretch> late = runs.stream().map(Saso.Result::learned).toList();
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s of %s | %s | %s | %s | %s | %s of %s | %s | %s |\n",
              peerCells.contains(c)
                  ? c.controller() + " (`results/" + peers.getFileName() + "/`)"
                  : c.controller(),
              runs.size(),
              fig(late, Stretch::sloBehindSeconds),
              fig(late, Stretch::sloJudgedSeconds),
              fig(aged(late), Double::doubleValue),
              fig(late, Stretch::underProvisionedSeconds),
              fig(late, Stretch::slotSeconds),
              fig(late, Stretch::rescales),
              fig(runs, Saso.Result::runSloBehindSeconds),
              fig(runs, Saso.Result::runSloJudgedSeconds),
              fig(runs, Saso.Result::slotSeconds),
              fig(runs, Saso.Result::steps)));
    }
    md.append("\n").append(verdict(cells)).append("\n\n");
    if (!notes.isEmpty()) {
      md.append(notes).append("\n");
    }
    plot(md, dir, own, peerCells, peers);
    return true;
  }

  /** The bar, predictive against reactive, from the third day on. */
  static String verdict(List<SuiteSection.Cell> cells) {
    List<Stretch> reactive = learned(cells, REACTIVE);
    List<Stretch> predictive = learned(cells, PREDICTIVE);
    if (reactive.isEmpty() || predictive.isEmpty()) {
      return "No verdict yet: the reactive and the predictive runs are both needed.";
    }
    double behind = median(predictive, Stretch::sloBehindSeconds);
    double behindReactive = median(reactive, Stretch::sloBehindSeconds);
    double slots =
        median(predictive, Stretch::slotSeconds) / median(reactive, Stretch::slotSeconds);
    List<Double> agedPredictive = aged(predictive);
    List<Double> agedReactive = aged(reactive);
    String byAge =
        agedPredictive.size() == predictive.size() && agedReactive.size() == reactive.size()
            ? byAge(
                median(agedPredictive, Double::doubleValue),
                median(agedReactive, Double::doubleValue))
            : "";
    double rescales = median(predictive, Stretch::rescales);
    double rescalesReactive = median(reactive, Stretch::rescales);
    String runs =
        predictive.size() >= PeerComparison.MIN_RUNS && reactive.size() >= PeerComparison.MIN_RUNS
            ? ""
            : String.format(
                Locale.ROOT,
                " **%d and %d run(s): shown, not yet judged** (%d of each are needed).",
                predictive.size(),
                reactive.size(),
                PeerComparison.MIN_RUNS);
    return String.format(
        Locale.ROOT,
        "From the third day, by the medians: predictive ds2 is behind %.0f s against reactive"
            + " %.0f s (%s; the bar: at most %.0f %%)%s, under-provisioned %.0f s against %.0f s,"
            + " at %.2f x its slot-seconds (%s; at most %.2f x), with %.0f rescales against %.0f"
            + " (%s; no more).%s",
        behind,
        behindReactive,
        behindReactive > 0
            ? String.format(
                Locale.ROOT,
                "%.0f %% of it: %s",
                100 * behind / behindReactive,
                behind <= BEHIND_SHARE * behindReactive ? "holds" : "fails")
            : "reactive was never behind: nothing to gain",
        100 * BEHIND_SHARE,
        byAge,
        median(predictive, Stretch::underProvisionedSeconds),
        median(reactive, Stretch::underProvisionedSeconds),
        slots,
        slots <= SLOT_GROWTH ? "holds" : "fails",
        SLOT_GROWTH,
        rescales,
        rescalesReactive,
        rescales <= rescalesReactive ? "holds" : "fails",
        runs);
  }

  private static void plot(
      StringBuilder md,
      Path dir,
      List<SuiteSection.Cell> own,
      List<SuiteSection.Cell> peerCells,
      Path peers)
      throws IOException {
    Map<String, Path> first = new LinkedHashMap<>();
    firstRuns(first, own, dir);
    firstRuns(first, peerCells, peers);
    Path predictive = first.get(PREDICTIVE);
    if (predictive == null) {
      return;
    }
    try {
      DiurnalPlot.write(dir.resolve("diurnal.png"), first, predictive);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while replaying " + predictive, e);
    }
    String at = "results/" + dir.getFileName();
    md.append(
        "\nEach controller's first run; the forecast as a replay of the predictive run reads it"
            + " (`bin/ds2 whatif --recording experiments/"
            + at
            + "/diurnal__ds2-forecast-u0.7.jsonl.gz`):\n\n"
            + "![diurnal]("
            + at
            + "/diurnal.png)\n\n");
  }

  private static void firstRuns(Map<String, Path> first, List<SuiteSection.Cell> cells, Path dir) {
    for (SuiteSection.Cell c : cells) {
      Path recording = dir.resolve("diurnal__" + c.controller() + ".jsonl.gz");
      if (Files.exists(recording)) {
        first.put(c.controller(), recording);
      }
    }
  }

  /** The ages' verdict, as the schedule's: predictive's seconds behind against reactive's. */
  private static String byAge(double predictive, double reactive) {
    return String.format(
        Locale.ROOT,
        "; by the records' age %.0f s against %.0f s (%s)",
        predictive,
        reactive,
        reactive > 0
            ? String.format(
                Locale.ROOT,
                "%.0f %% of it: %s",
                100 * predictive / reactive,
                predictive <= BEHIND_SHARE * reactive ? "holds" : "fails")
            : "reactive was never behind: nothing to gain");
  }

  /** The runs' seconds behind by the records' age, where their recordings keep it. */
  private static List<Double> aged(List<Stretch> runs) {
    return runs.stream()
        .filter(java.util.Objects::nonNull)
        .map(Stretch::ageBehindSeconds)
        .filter(java.util.Objects::nonNull)
        .toList();
  }

  private static List<Stretch> learned(List<SuiteSection.Cell> cells, String controller) {
    List<Stretch> out = new ArrayList<>();
    cells.stream()
        .filter(c -> c.controller().equals(controller))
        .flatMap(c -> c.runs().stream())
        .map(Saso.Result::learned)
        .filter(java.util.Objects::nonNull)
        .forEach(out::add);
    return out;
  }

  private static <T> String fig(List<T> rows, ToDoubleFunction<T> f) {
    List<Double> v =
        rows.stream().filter(java.util.Objects::nonNull).map(f::applyAsDouble).toList();
    return v.isEmpty() ? "-" : Repeats.figure(v, "%.0f");
  }

  private static <T> double median(List<T> rows, ToDoubleFunction<T> f) {
    return Repeats.median(rows.stream().map(f::applyAsDouble).toList());
  }
}
