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
      Notes (2026-12-05; two runs of each ds2 controller and one of the Flink autoscaler, so
      nothing is judged yet). The Flink autoscaler's run 1 (at f065d05; its code is the
      library's, `flink-autoscaler` 1.10.0, capped at the cluster's 24 slots as its users cap
      it; builds, unit tests, one 55 s MiniCluster test and replays ran beside it at nice 19
      in its first 25 minutes, before the judged days): 1/1/1 -> 2/1/2 at 377 s and 6/1/8 at
      742 s, when its first 5-minute windows had filled, then every scale-down delayed by its
      1-hour `scale-down.interval` (the log says so 60 times): three of these compressed
      days, so it held the lunch level to the end. From the third day it is behind 0 s with
      no rescale, at 19,195 slot-seconds: 1.37 x reactive ds2's median, 1.21 x
      predictive's. Over the whole run it is behind 678 s (its first 742 s, the first day's
      ramp and lunch, at 1 and 2) against ds2's 22-54 s. On days of 24 hours its hour would
      let it step down each evening; on this bench the interval is the compression's cost
      to it, as the scale-down delay and the forecast's hold are to ds2 (below).
      Where predictive ds2's 1.13 x goes, replayed: `bin/ds2 whatif --recording R
      --side-by-side --forecast-period=20m --forecast-bucket=1m` runs each ds2 recording's
      demand again on the job learnt from it (a fluid; ds2's own core, policy and forecast),
      reactive and predictive. From the third day (the run cut at 2,400 s subtracted), over
      the four recordings: reactive behind 59-114 s, 14,433-14,835 slot-seconds, 11-12
      rescales; predictive behind 4-5 s, 16,182-16,439 (1.11-1.12 x), 4-5 rescales: the live
      pattern. With the hold of scale-downs (`FORECAST_HOLDS_DOWN`: over the lead time and
      the 5-minute scale-down delay) cut to the lead time alone (a one-line change, not
      kept): 1.03-1.05 x, 9-10 rescales, behind 9-10 s. The hold is the cost: on 20-minute
      days its horizon (63 s + 300 s, 7.3 hours of day-clock) reaches from the night into
      the morning ramp and holds the Join at the morning's level most of the night, where on
      days of 24 hours it is the last 6 minutes before a ramp. It is kept. The ds2 runs below
      predate `NO_SLOT_FREED` (66bde17), which holds some of the Join's lone scale-downs here
      (replayed, 1-4 decisions a run): their three runs each are to be made again on one
      commit. Reactive run 1 was made at 9ac4b40, run 2 at f8964ae (whose ds2
      code adds only the smaller hidden-lag step b63cdee, which no decision here takes: no
      SOURCE_LAG_HIDDEN in either run); the predictive ones at cc78326 and 65fe3ab (the same
      ds2 code: the forecast's weight fix fbcc078, the drain hold 7797a85 and the scale-down
      hold 2baea27); all are scored by the judge as fixed at 1fe5d55. The judge before it set
      what the sources read, by counters up to a metric refresh (10 s) older than the poll,
      against what the schedule sent over the trailing minute up to the poll: on a ramp a job
      followed exactly that read as 1 % behind for most of the ramp (216 s of reactive's and
      277 s of predictive run 1's third and fourth days; 34 s and 0 s now). From the third day
      both predictive runs are behind 0 s, reactive's 34 s and 0 s: the behind bar holds by
      the medians (0 against 17 s) only through reactive's first run; its second kept up
      through every ramp. Rescales 8 and 7 against 10 and 10. Slot-seconds 16,099 and 15,633
      against 14,205 and 13,877: 1.13 x by the medians, above the bar's 1.10. Where the slots
      go (day 3 and 4, above reactive's): the mornings — both predictive runs held 4/1/4
      through the night's end where reactive stepped down (run 1 to 2/1/3 at 06:23 on day 3;
      run 2 to 3/1/4 at 06:02 on day 3 and 07:15 on day 4, both within the ramp) and
      went back up within the ramp; the night into day 4 — the forecast's ramp within the
      lead time and the 5-minute scale-down delay of an 11-minute night held the source at 6
      until 00:50-00:53 and the Join at 6 through it (both runs; reactive 4/1/4 from 19:54 and
      4/1/5 from 00:03); lunch — predictive run 1 sized the Join for 0.7 on uneven key groups,
      8 then 9 (about +300 and +120 a day), where reactive took the smallest of its activation
      windows (7 in both runs) and kept up above its target; predictive run 2 stayed at 8. On
      days of 24 hours the hold is the last lead time and delay before a ramp, not half the
      night.
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
        (seconds with the lag growing by more than 1 % of the demand over the trailing minute);
        median with min–max over the runs. No lag peak is shown: at Kafka's default fetch a
        source that keeps up takes all there is at every fetch and its lag gauge reads about 0,
        so behind is also judged on what was sent less what the sources read, both over the
        span their counters cover (see the headline).

        | controller | runs | day 3 on: behind (s of judged) | slot-s | rescales | whole run: behind (s of judged) | slot-s | rescales |
        |---|---|---|---|---|---|---|---|
        """);
    for (SuiteSection.Cell c : cells) {
      List<Saso.Result> runs = c.runs();
      List<Stretch> late = runs.stream().map(Saso.Result::learned).toList();
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s of %s | %s | %s | %s of %s | %s | %s |\n",
              c.controller(),
              runs.size(),
              fig(late, Stretch::sloBehindSeconds),
              fig(late, Stretch::sloJudgedSeconds),
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
            + " %.0f s (%s; the bar: at most %.0f %%), at %.2f x its slot-seconds (%s; at most"
            + " %.2f x), with %.0f rescales against %.0f (%s; no more).%s",
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
