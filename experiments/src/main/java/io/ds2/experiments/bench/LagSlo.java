package io.ds2.experiments.bench;

import java.util.List;

/**
 * The lag-slope service level as ShuffleBench and Theodolite judge a stream processor: a job is
 * behind while its sources' consumer lag grows by more than 1 % of the demand per second. Judged
 * per phase after a warm-up of {@value #WARM_UP_SECONDS} s (a phase starts with a load change the
 * controller has to see first), on the slope of a least-squares line through the lag over the
 * trailing {@value #TREND_SECONDS} s: Flink refreshes metrics every 10 s by default and a Kafka
 * source's lag gauge is seconds stale, so a shorter trend reads steps of the gauge, not the lag.
 */
final class LagSlo {
  static final double WARM_UP_SECONDS = 120;
  static final double TREND_SECONDS = 60;
  static final double GROWTH_OF_DEMAND = 0.01;

  /** A phase's verdict: seconds judged and seconds behind among them. */
  record Verdict(double judgedSeconds, double behindSeconds) {}

  private LagSlo() {}

  /**
   * @param points the run's samples, in time order
   * @param phase which phase
   * @param from the phase's start (s)
   * @param to the phase's end (s)
   * @param demand records/s arriving in the phase
   */
  static Verdict of(List<Saso.Point> points, int phase, double from, double to, double demand) {
    List<Saso.Point> in =
        points.stream().filter(p -> p.phase() == phase && p.t() >= from && p.t() <= to).toList();
    double judged = 0;
    double behind = 0;
    for (int i = 1; i < in.size(); i++) {
      Saso.Point a = in.get(i - 1);
      if (a.t() < from + WARM_UP_SECONDS) {
        continue;
      }
      double dt = in.get(i).t() - a.t();
      judged += dt;
      if (slope(in, a.t() - TREND_SECONDS, a.t()) > GROWTH_OF_DEMAND * demand) {
        behind += dt;
      }
    }
    return new Verdict(judged, behind);
  }

  /** Records/s of the least-squares line through the lag of the points in [from, to]. */
  static double slope(List<Saso.Point> points, double from, double to) {
    double n = 0;
    double st = 0;
    double sl = 0;
    double stt = 0;
    double stl = 0;
    for (Saso.Point p : points) {
      if (p.t() < from || p.t() > to) {
        continue;
      }
      n++;
      st += p.t();
      sl += p.pending();
      stt += p.t() * p.t();
      stl += p.t() * p.pending();
    }
    double var = n * stt - st * st;
    return n < 2 || var == 0 ? 0 : (n * stl - st * sl) / var;
  }
}
