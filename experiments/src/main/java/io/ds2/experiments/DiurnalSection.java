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
      Notes (2026-12-05; the Flink autoscaler's three runs; reactive ds2's run 1 made again on
      today's decision code, its run 2 and predictive ds2's two runs before the changes below,
      so nothing is judged yet). **The Flink autoscaler** (its code
      is the library's, `flink-autoscaler` 1.10.0, capped at the cluster's 24 slots as its
      users cap it; run 1 at f065d05, runs 2 and 3 at 6c451a8; builds, tests and replays ran
      beside the first 25 minutes of runs 1 and 2 and the whole CI beside the first 30 of
      run 3, before the judged days, at lower priority) ran the same way three times: 1/1/1 -> 2/1/2 at
      377 s and 6/1/8 at 742 s, when its first 5-minute windows had filled, then every
      scale-down delayed by its 1-hour `scale-down.interval`: three of these compressed days,
      so it held the lunch level to the end. From the third day it is behind 0 s with no
      rescale, at 19,182-19,195 slot-seconds: 1.32 x reactive ds2's median, 1.21 x
      predictive's (the runs below). Over the whole run it is behind 675-696 s (its first
      742 s, the first day's ramp and lunch, at 1 and 2) against ds2's 18-27 s, with 2
      rescales against ds2's 19-23. On days of 24 hours its hour would let it step down each
      evening; on this bench the interval is the compression's cost to it, as the scale-down
      delay is to ds2.
      **Reactive ds2's run 1 was made again** on 2026-12-05 at f27766d (the decision code of
      65bd944, with `NO_SLOT_FREED`): from the third day behind 0 s, 15,299 slot-seconds, 11
      rescales (whole run: behind 18 s of 4,679, 29,433 slot-seconds, 23 rescales). Its nights
      cost it: each evening (the oracle at 2/1/2 from minute 14) it held the lunch's 6/1/8 for
      the 5-minute scale-down delay, stepped to the most its windows over that delay had asked
      for (4/1/6, at minutes 18.6-19.9), waited out the delay again and took the next step as
      the morning ramp began (minutes 5.3-6.6, to 2/1/3 or 3/1/3), back up within 2-3 minutes; so every morning found it sized for the
      day, and it was never behind.
      **The other stored ds2 runs predate two changes and are to be made again on one commit**
      (three of each): `NO_SLOT_FREED` (66bde17), which holds some of the Join's lone
      scale-downs here (replayed, 1-4 decisions a run), and, for predictive ds2, the end of
      the forecast's hold of scale-downs (65bd944). That hold (`FORECAST_HOLDS_DOWN`, since
      2baea27) kept a scale-down wherever the forecast within the lead time *and* the
      5-minute scale-down delay needed more: on 20-minute days that horizon (63 s + 300 s,
      7.3 hours of day-clock) reached from the night into the morning ramp and held the Join
      at the morning's level most of the night, where on days of 24 hours it is the last 6
      minutes before a ramp. The issue asks only that the target for the next lead time be
      the larger of the measured and the forecast demand; that is what is kept. Replayed
      (`bin/ds2 whatif --recording R --side-by-side --forecast-period=20m
      --forecast-bucket=1m`: each ds2 recording's demand run again on the job learnt from it,
      a fluid, with ds2's own core, policy and forecast, judged from the third day) over the
      four ds2 recordings: reactive behind 59-114 s, 14,433-14,835 slot-seconds, 11-12
      rescales; predictive with the hold behind 4-5 s at 1.11-1.12 x (4-5 rescales: the live
      runs' 1.13 x), without it behind 9-10 s at 1.03-1.05 x with 9-10 rescales: every bar
      met in the fluid; a hold of the lead time and 30 s already costs 1.06-1.12 x. The hold
      saved restarts; without it predictive ds2 steps down in a dip as reactive does.
      What the earlier runs showed (reactive run 1 at 9ac4b40, since replaced, run 2 at f8964ae; predictive at
      cc78326 and 65fe3ab; all scored by the judge as fixed at 1fe5d55, which reads what the
      sources read over the same span as what the schedule sent): from the third day both
      predictive runs are behind 0 s, reactive's 34 s and 0 s; rescales 8 and 7 against 10
      and 10; slot-seconds 16,099 and 15,633 against 14,205 and 13,877 (1.13 x by the
      medians): the mornings and the nights held by the hold (both predictive runs held 4/1/4
      through the night's end where reactive stepped down within the ramp, and held the
      source at 6 and the Join at 6 into the night of day 4), and at lunch predictive run 1
      sized the Join for 0.7 on uneven key groups (8, then 9) where reactive took the smaller
      of its activation windows (7).
      """;

  private DiurnalSection() {}

  static void render(StringBuilder md, Path dir) throws IOException {
    List<SuiteSection.Cell> cells =
        SuiteSection.stored(dir).stream().filter(c -> c.scenario().equals("diurnal")).toList();
    if (cells.isEmpty()) {
      return;
    }
    md.append(
        """
        ## Forecasting recurring load: the diurnal benchmark

        The fan-in job (chained, its Join keyed, Kafka-fed: 12 partitions per source, Kafka's
        default fetch) on a cluster at Flink's defaults, over four compressed days of 20 min
        (night x0.5, a morning ramp to x1 over minutes 6-8, lunch x1.5 from 10 to 11 and back by
        13, the evening down to x0.5 by 15; 5 % noise a minute, the same seeded trace every run).
        Every controller sizes for 0.7: ds2 reactive (`ds2-defaults-u0.7`), ds2 acting on its
        forecast (`ds2-forecast-u0.7`: `--forecast act`, a 20 min period in 1 min steps) and the
        Flink autoscaler at its documentation's example settings (`flink-as-1.10-doc-u0.7`).
        `bin/ds2-bench suite --feed kafka --cluster flink-defaults --scenarios diurnal
        --controllers CONTROLLER --repeats 1,2,3 --out experiments/results/diurnal` (80 min a
        run). A forecast needs a day to learn from and one to test on, so the runs are judged
        from the third day (2,400 s) on, and over the whole run: *behind* is the lag-slope SLO
        (seconds with the lag growing by more than 1 % of the demand over the trailing minute),
        *under* the seconds with a vertex below the oracle (the fewest instances keeping every
        subtask below 98 % busy: short of capacity, whether or not the lag grew by 1 % yet);
        median with min–max over the runs. No lag peak is shown: at Kafka's default fetch a
        source that keeps up takes all there is at every fetch and its lag gauge reads about 0,
        so behind is also judged on what was sent less what the sources read, both over the
        span their counters cover (see the headline).

        | controller | runs | day 3 on: behind (s of judged) | under (s) | slot-s | rescales | whole run: behind (s of judged) | slot-s | rescales |
        |---|---|---|---|---|---|---|---|---|
        """);
    for (SuiteSection.Cell c : cells) {
      List<Saso.Result> runs = c.runs();
      List<Stretch> late = runs.stream().map(Saso.Result::learned).toList();
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s of %s | %s | %s | %s | %s of %s | %s | %s |\n",
              c.controller(),
              runs.size(),
              fig(late, Stretch::sloBehindSeconds),
              fig(late, Stretch::sloJudgedSeconds),
              fig(late, Stretch::underProvisionedSeconds),
              fig(late, Stretch::slotSeconds),
              fig(late, Stretch::rescales),
              fig(runs, Saso.Result::runSloBehindSeconds),
              fig(runs, Saso.Result::runSloJudgedSeconds),
              fig(runs, Saso.Result::slotSeconds),
              fig(runs, Saso.Result::steps)));
    }
    md.append("\n").append(verdict(cells)).append("\n\n");
    if (!NOTES.isEmpty()) {
      md.append(NOTES).append("\n");
    }
    plot(md, dir, cells);
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
            + " %.0f s (%s; the bar: at most %.0f %%), under-provisioned %.0f s against %.0f s,"
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

  private static void plot(StringBuilder md, Path dir, List<SuiteSection.Cell> cells)
      throws IOException {
    Map<String, Path> first = new LinkedHashMap<>();
    for (SuiteSection.Cell c : cells) {
      Path recording = dir.resolve("diurnal__" + c.controller() + ".jsonl.gz");
      if (Files.exists(recording)) {
        first.put(c.controller(), recording);
      }
    }
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
    md.append(
        "\nEach controller's first run; the forecast as a replay of the predictive run reads it"
            + " (`bin/ds2 whatif --recording"
            + " experiments/results/diurnal/diurnal__ds2-forecast-u0.7.jsonl.gz`):\n\n"
            + "![diurnal](results/diurnal/diurnal.png)\n\n");
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
