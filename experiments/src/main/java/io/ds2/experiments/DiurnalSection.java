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

  static final String NOTES =
      """
      Notes (2026-12-06). **Runs 1 and 2 of both ds2s at ece3271** (the headline's decision
      code: a restart's backlog waited out), each pair side by side and beside two or three other
      benches on this 2-core machine (the Orders source's rate per instance 145.3-145.5/s in runs
      1 and 143.4-143.5/s in runs 2, against 146.4-147.0/s in runs made alone: up to 2 % slow).
      No run 3 on this code: what runs 1 and 2 showed changed the code (73567e8, above).
      - **From the third day neither ds2 was behind by the SLO for more than 3 s, but reactive
        ran short**: a vertex below the 98 %-busy oracle for 215 and 287 s of 2,400, predictive
        for 3 and 24 s. In run 1 reactive held 4/1/6 through the night, stepped down to 3/1/3 at
        minute 5.7 of day 3 as its scale-down delay ended, into the morning ramp, and was back
        at 4/1/6 by minute 8.7; it met lunch at 4 (about 590/s of 600/s: the lag grows under the
        SLO's 1 % of the demand) until 6/1/7 at minute 11.4. Predictive went from 4/1/4 to 6/1/6
        at minute 6.9 on the forecast (`FORECAST_AHEAD`) and to 6/1/8 at minute 10.5.
      - **Predictive cost 1.17 x reactive's slot-seconds in both runs** (17,131 and 17,436
        against 14,644 and 14,858: above the issue's 1.10), with 9 rescales against 10. In both
        most of the difference is one decision: at the end of day 3's lunch (611/s, x1.53 with
        the noise) the Orders source at 6 ran 0.71 busy for the 0.7 target (70.6 % in run 2), and
        the topic's 12 partitions split evenly only at 6 or 12: 6 -> 12 at 3,133 and 3,126 s,
        held through the scale-down delay to 3,567 and 3,531 s (2,100 and 2,430 of the 2,490 and
        2,578 extra slot-seconds). Reactive reached the same minute at 6 from smaller windows. A
        knife-edge of the split rule, not of the forecast: on this code a needed scale-up was
        never held, however small its need (`--scale-down-threshold` only damps scale-downs);
        the night after it at 6/1/6 (12 -> 6: `--max-step-down` 2) where reactive held 4/1/5
        comes from that step too. Since 73567e8 a scale-up is held while the busiest subtask
        stays within a tenth of the headroom above the target (`--scale-up-tolerance`);
        replayed, both 6 -> 12 are held.
      - **The Flink autoscaler** (its code is the library's, `flink-autoscaler` 1.10.0, capped
        at the cluster's 24 slots as its users cap it; run 1 at f065d05, runs 2 and 3 at
        6c451a8) ran the same way three times: 1/1/1 -> 2/1/2 at 377 s and 6/1/8 at 742 s, when
        its first 5-minute windows had filled, then every scale-down delayed by its 1-hour
        `scale-down.interval` (three of these compressed days), so it held the lunch level to
        the end: from the third day behind 0 s and never short, with no rescale, at
        19,182-19,195 slot-seconds (1.31 x reactive ds2's run 1, 1.12 x predictive's); over
        the whole run behind 675-696 s (its first 742 s) against ds2's 22-27 s, with 2
        rescales against ds2's 19-21. On days of 24 hours its hour would let it step down each
        evening; on this bench the interval is the compression's cost to it, as the scale-down
        delay is to ds2.
      """;

  private DiurnalSection() {}

  /** The runs on scale-up-tolerance's code (73567e8, 371c5af), the feed on a monotonic clock. */
  static final String HEADROOM_NOTES =
      """
      Notes (2026-12-06). Reactive ds2: runs 1-3 at 73567e8 (`--scale-up-tolerance` 0.1; run 1
      beside two other benches, runs 2 and 3 beside three). Predictive ds2: runs 1-3 at 371c5af (1
      and 2 beside three other benches, 3 beside two). 371c5af changes only the forecast's path
      (`ForecastSizing.raise`), which reactive ds2 never takes, so the reactive runs stand for it.
      It replaced predictive's run 1 at 73567e8 (in git at 546ea8d: from day 3 behind 16 s, short of
      capacity 128 s, 15,930 slot-seconds, 11 rescales), in which at day 3's lunch the forecast
      (581/s) and the window (422/s) both asked for the Orders source at 6 and the window's estimate
      was kept, so the tolerance held the step, judged at 422/s (busiest subtask 72.0 %): short 120
      s. The Flink autoscaler's row is its three runs in `results/diurnal/` (f065d05, 6c451a8; the
      harness has changed since only in its scoring): its decisions are the library's, and its
      recordings keep no records' age.
      - **The two readings of behind disagree, and why is found.** By the schedule (what the trace
        had sent less what the sources read over the span their counters cover) every run made today
        beside three other benches, of either controller, was behind 714-848 s from day 3, where
        reactive's run 1 was 13 s; in reactive's run 2, in every stretch it scored behind, the
        records the sources emitted were 11-18 ms old (median): they were read as soon as they were
        sent. By the records' age (their emit lag growing by more than 1 % of the time over the
        trailing minute: the same criterion, on what was really sent) the runs were behind 0-88 s.
        The cause: every bench's JVM stood still 20-21 s at 07:41:53 (a gap in all four recordings),
        the feed's producers paced their schedule on a monotonic clock that stood still with them,
        and from then on the whole load ran about 20 s behind the wall-clock schedule the phases,
        the oracle and the scoring follow (Payments, at parallelism 1, rose into day 4's lunch at
        about 4,225 s against 4,208 s in run 1). So in these four runs (run 3 of predictive started
        after the freeze: behind 0 s by either reading) every rise is scored behind and short of
        capacity for up to 20 s before it arrives, both controllers alike (reactive's run 1, made at
        05:10, is not); the records' age is unaffected. Fixed for the next runs (dad2a19: the feed
        paces on the wall clock, a freeze leaves a burst); these runs' schedule column stays as
        measured.
      - **Predictive against reactive, from day 3** (three runs each): short of capacity 108-255 s
        against 321-359 s, 15,295-16,289 slot-seconds against 14,383-15,055 (1.07 x by the medians),
        6-9 rescales against 9-12, behind by the records' age 0-11 s against 24-88 s. On the
        records' age, the slot-seconds and the rescales the bar holds; on the schedule's reading it
        does not, for the freeze above.
      - **The forecast did not reach lunch ahead of it.** On day 3 runs 1 and 2 met it at 4 and
        stepped to 6 from windows (at 3,073 and 3,104 s: short 74 and 108 s), run 3 at 3,067 s with
        the forecast (`FORECAST_AHEAD`, after its activation window); on day 4 run 3's source
        stepped at 4,220 s, 20 s into lunch; at 3,013 s the forecast raised nothing (a raise needs
        it above the window by more than its error: 9-11 % in these runs, 6 % in the run at
        73567e8). Two causes read from the decisions: the history learns each window's rate at the
        decision, half a window after the window's middle, and after a rescale's warm-up lunch's
        first minute holds few windows (run 1 at 73567e8: minute 10's bucket 406/s where the trace
        ramped from 390 to 585/s over it); and the lead time (81 s) reaches one or two one-minute
        buckets ahead. On day 4 the forecast moved the Join in the morning ramp (run 1: 3 -> 4 at
        4,019 s) and, in run 2, the source 4 -> 6 at 4,198 s, 2 s before lunch.
      """;

  /** The runs with the feed on the wall clock and the forecast's fixes (519a4ae, 5432521). */
  static final String WALLCLOCK_NOTES = "";

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
    return render(md, dir, HEADING + INTRO, WALLCLOCK_NOTES, peerCells, peers);
  }

  /**
   * Runs on scale-up-tolerance's code whose feed paced on a monotonic clock, as they were judged;
   * with the benchmark's description where {@code described} is false.
   *
   * @return whether there were any
   */
  static boolean renderHeadroom(StringBuilder md, Path dir, boolean described) throws IOException {
    return render(
        md,
        dir,
        (described ? "" : HEADING + INTRO)
            + """
        ### Earlier: the feed on a monotonic clock (73567e8 and 371c5af)

        The same benchmark on scale-up-tolerance's decision code, before the feed paced on the
        wall clock (dad2a19, 519a4ae) and before the forecast's fixes (99c5d4f, 5432521).

        """,
        HEADROOM_NOTES,
        List.of(),
        dir);
  }

  /**
   * Runs before scale-up-tolerance, as they were judged; with the benchmark's description where
   * {@code described} is false (no newest runs above them).
   */
  static void renderEarlier(StringBuilder md, Path dir, boolean described) throws IOException {
    render(
        md,
        dir,
        (described ? "" : HEADING + INTRO)
            + """
        ### Earlier: the diurnal benchmark before scale-up-tolerance (ece3271 and older)

        The same benchmark, run on ds2's decision code before 73567e8 (a needed scale-up was
        never held, however small its need), and the Flink autoscaler's runs.

        """,
        NOTES,
        List.of(),
        dir);
  }

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
        --controllers CONTROLLER --repeats 1,2,3 --out experiments/results/diurnal-wallclock` (80
        min a run; earlier runs are in `experiments/results/diurnal-headroom` and, before
        73567e8, `experiments/results/diurnal`). A forecast needs a day to learn from and one to test on, so the runs are judged
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
