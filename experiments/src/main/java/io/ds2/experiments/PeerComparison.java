package io.ds2.experiments;

import io.ds2.experiments.bench.Saso;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * ds2 against each peer run on the same scenario, figure by figure, from their repeats: a
 * difference is claimed only where the two ranges (min–max over the runs) do not overlap, and only
 * with {@link #MIN_RUNS} runs or more of each; otherwise the row says "no difference" or how few
 * runs there are.
 */
final class PeerComparison {
  /** Runs of each side needed before ranges are compared at all. */
  static final int MIN_RUNS = 3;

  /** One figure of a run, lower is better. */
  record Figure(String name, String format, ToDoubleFunction<Saso.Result> of) {}

  static final List<Figure> FIGURES =
      List.of(
          new Figure(
              "slot-s / oracle at its target",
              "%.2f",
              r ->
                  r.targetOracleSlotSeconds() > 0
                      ? r.slotSeconds() / r.targetOracleSlotSeconds()
                      : r.slotSeconds() / r.oracleSlotSeconds()),
          new Figure(
              "seconds behind (SLO, all phases)",
              "%.0f",
              r -> r.phases().stream().mapToDouble(Saso.Phase::sloBehindSeconds).sum()),
          new Figure(
              "lag peak (records)",
              "%.0f",
              r -> r.phases().stream().mapToDouble(Saso.Phase::peakLag).max().orElse(0)),
          new Figure("under-provisioned (s)", "%.0f", Saso.Result::underProvisionedSeconds),
          new Figure("rescales", "%.0f", r -> r.steps()));

  private PeerComparison() {}

  /** A markdown table comparing {@code ds2} with {@code peer} (runs of one scenario each). */
  static String table(SuiteSection.Cell ds2, SuiteSection.Cell peer) {
    StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "| %s | %s (%s) | %s (%s) | |\n|---|---|---|---|\n",
            ds2.scenario(),
            ds2.controller(),
            runs(ds2.runs().size()),
            peer.controller(),
            runs(peer.runs().size())));
    for (Figure f : FIGURES) {
      double[] a = values(ds2.runs(), f);
      double[] b = values(peer.runs(), f);
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s |\n",
              f.name(),
              spread(a, f.format()),
              spread(b, f.format()),
              verdict(a, b, ds2.controller())));
    }
    return md.toString();
  }

  /**
   * Which side is lower where the ranges do not overlap, with {@link #MIN_RUNS} runs each; "no
   * difference" where they overlap.
   */
  static String verdict(double[] a, double[] b, String first) {
    if (a.length < MIN_RUNS || b.length < MIN_RUNS) {
      return "not compared (fewer than " + MIN_RUNS + " runs)";
    }
    double[] x = a.clone();
    double[] y = b.clone();
    Arrays.sort(x);
    Arrays.sort(y);
    if (x[x.length - 1] < y[0]) {
      return first + " lower";
    }
    if (y[y.length - 1] < x[0]) {
      return first + " higher";
    }
    return "no difference";
  }

  private static String runs(int n) {
    return n == 1 ? "1 run" : n + " runs";
  }

  /** The median, and min–max with more than one run. */
  static String spread(double[] v, String format) {
    double[] s = v.clone();
    Arrays.sort(s);
    String median = String.format(Locale.ROOT, format, s[(s.length - 1) / 2]);
    return s.length == 1
        ? median
        : median
            + " ("
            + String.format(Locale.ROOT, format, s[0])
            + "–"
            + String.format(Locale.ROOT, format, s[s.length - 1])
            + ")";
  }

  private static double[] values(List<Saso.Result> runs, Figure f) {
    return runs.stream().mapToDouble(f.of()).toArray();
  }
}
