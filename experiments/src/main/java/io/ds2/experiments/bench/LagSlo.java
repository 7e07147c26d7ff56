package io.ds2.experiments.bench;

import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.SubtaskSample.Counter;
import io.ds2.core.window.VertexSample;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

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
  // Reads over less of a run than this say little (the first polls after a restart still show the
  // old run's counters at a 10 s refresh).
  static final double MIN_RUN_SECONDS = 20;
  // How far a poll's counters can lag it: a metric refresh (Flink's default, 10 s) and a little.
  static final double MAX_COUNTER_AGE_SECONDS = 15;

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
    return of(points, List.of(), Set.of(), phase, from, to, demand);
  }

  /**
   * As above, the lag's growth being at least what arrives less what the sources read over the
   * trailing {@value #TREND_SECONDS} s of the same run (by each subtask's own clock; {@code
   * sampled} aligned with {@code points}): a lag gauge alone can hide a backlog (a Kafka consumer
   * at its default fetch holds what it fetched uncounted).
   */
  static Verdict of(
      List<Saso.Point> points,
      List<KeepsUp.Sampled> sampled,
      Set<String> sources,
      int phase,
      double from,
      double to,
      double demand) {
    return of(points, sampled, sources, startOffsets(sampled, sources), phase, from, to, demand);
  }

  /**
   * As above, with the runs' start offsets ({@link #startOffsets}) worked out once for all of a
   * run's phases.
   */
  static Verdict of(
      List<Saso.Point> points,
      List<KeepsUp.Sampled> sampled,
      Set<String> sources,
      Map<Instant, Double> offsets,
      int phase,
      double from,
      double to,
      double demand) {
    List<Integer> in = new ArrayList<>();
    for (int k = 0; k < points.size(); k++) {
      Saso.Point p = points.get(k);
      if (p.phase() == phase && p.t() >= from && p.t() <= to) {
        in.add(k);
      }
    }
    List<Saso.Point> inPoints = in.stream().map(points::get).toList();
    double judged = 0;
    double behind = 0;
    for (int i = 1; i < in.size(); i++) {
      Saso.Point a = points.get(in.get(i - 1));
      if (a.t() < from + WARM_UP_SECONDS) {
        continue;
      }
      double dt = points.get(in.get(i)).t() - a.t();
      judged += dt;
      double growth = slope(inPoints, a.t() - TREND_SECONDS, a.t());
      if (sampled.size() == points.size() && !sources.isEmpty()) {
        Reads r = reads(sampled, in.get(i - 1), sources, offsets);
        if (r != null) {
          growth = Math.max(growth, demand - r.rate());
        }
      }
      if (growth > GROWTH_OF_DEMAND * demand) {
        behind += dt;
      }
    }
    return new Verdict(judged, behind);
  }

  /**
   * As {@link #of}, over the whole run after its first {@value #WARM_UP_SECONDS} s rather than per
   * phase: a load that moves all the time (compressed days, a phase a minute) has no steady phase
   * to judge. The demand is what the schedule sent over the same trailing {@value #TREND_SECONDS} s
   * as the lag's trend, and what it sent over the very span the sources' reads were counted over
   * (their counters are up to a metric refresh, 10 s, older than the poll that reads them: set
   * against the trailing minute of the schedule, a ramp a job follows exactly read as falling
   * behind 1 % of the demand for most of the ramp). Judged from second {@code from} on (after the
   * warm-up in any case).
   */
  static Verdict overRun(
      List<Saso.Point> points,
      List<KeepsUp.Sampled> sampled,
      Set<String> sources,
      Scenario s,
      double from) {
    double judged = 0;
    double behind = 0;
    Map<Instant, Double> offsets = startOffsets(sampled, sources);
    for (int k = 1; k < points.size(); k++) {
      Saso.Point a = points.get(k - 1);
      if (a.t() < Math.max(WARM_UP_SECONDS, from)) {
        continue;
      }
      double dt = points.get(k).t() - a.t();
      judged += dt;
      double demand = (s.eventsBy(a.t()) - s.eventsBy(a.t() - TREND_SECONDS)) / TREND_SECONDS;
      boolean isBehind = slope(points, a.t() - TREND_SECONDS, a.t()) > GROWTH_OF_DEMAND * demand;
      Reads r =
          sampled.size() == points.size() && !sources.isEmpty()
              ? reads(sampled, k - 1, sources, offsets)
              : null;
      if (r != null && r.to() > r.from()) {
        double sent = (s.eventsBy(r.to()) - s.eventsBy(r.from())) / (r.to() - r.from());
        isBehind |= sent - r.rate() > GROWTH_OF_DEMAND * sent;
      }
      if (isBehind) {
        behind += dt;
      }
    }
    return new Verdict(judged, behind);
  }

  /**
   * What the sources read: records/s, counted from {@code from} to {@code to} (seconds of the run,
   * when the counters were taken, not when they were polled).
   */
  record Reads(double rate, double from, double to) {}

  /**
   * What the sources read over the trailing minute up to poll {@code k}, within its run (from the
   * earliest poll of that run at least {@value #MIN_RUN_SECONDS} s before it whose counters are not
   * ahead); null (no evidence of a shortfall) where there is none.
   */
  private static Reads reads(
      List<KeepsUp.Sampled> sampled, int k, Set<String> sources, Map<Instant, Double> offsets) {
    KeepsUp.Sampled b = sampled.get(k);
    for (int j = 0; j < k; j++) {
      KeepsUp.Sampled a = sampled.get(j);
      double span = b.t() - a.t();
      if (span > TREND_SECONDS) {
        continue;
      }
      if (span < MIN_RUN_SECONDS) {
        break;
      }
      if (!a.sample().runningSince().equals(b.sample().runningSince())
          || !KeepsUp.comparable(a.sample(), b.sample())) {
        continue;
      }
      double rate = 0;
      for (String id : sources) {
        VertexSample x = a.sample().vertices().get(id);
        VertexSample y = b.sample().vertices().get(id);
        if (x == null || y == null || x.parallelism() != y.parallelism()) {
          return null;
        }
        rate += KeepsUp.readRate(x, y, span);
      }
      double offset = offsets.getOrDefault(b.sample().runningSince(), 0.0);
      return new Reads(rate, countedAt(a, sources, offset), countedAt(b, sources, offset));
    }
    return null;
  }

  /**
   * When the sources' counters of a poll were taken, in seconds of the run: the poll's time less
   * how far the counters lag it ({@link #counterAge}), less {@code offset}, the part of that
   * estimate that is the subtasks' start after the job's (at most a refresh, 10 s, and a little).
   */
  static double countedAt(KeepsUp.Sampled p, Set<String> sources, double offset) {
    OptionalDouble age = counterAge(p, sources);
    if (age.isEmpty()) {
      return p.t();
    }
    return p.t() - Math.max(0, Math.min(MAX_COUNTER_AGE_SECONDS, age.getAsDouble() - offset));
  }

  /**
   * How old a poll's source counters look: the time since the job entered RUNNING less the sources'
   * subtasks' mean elapsed time (busy + idle + back-pressured); empty without subtasks. A subtask
   * starts after the job does (its deploy, seconds on a busy machine and more with more subtasks),
   * so this carries that start as a constant part.
   */
  static OptionalDouble counterAge(KeepsUp.Sampled p, Set<String> sources) {
    double elapsed = 0;
    int n = 0;
    for (String id : sources) {
      VertexSample v = p.sample().vertices().get(id);
      if (v == null) {
        continue;
      }
      for (SubtaskSample t : v.subtasks()) {
        elapsed +=
            t.get(Counter.BUSY_TIME_MS).orElse(0)
                + t.get(Counter.IDLE_TIME_MS).orElse(0)
                + t.get(Counter.BACK_PRESSURED_TIME_MS).orElse(0);
        n++;
      }
    }
    if (n == 0) {
      return OptionalDouble.empty();
    }
    Instant at = p.sample().runningSince().plusMillis(Math.round(elapsed / n));
    return OptionalDouble.of(Duration.between(at, p.sample().time()).toMillis() / 1000.0);
  }

  /**
   * Per run (the job's RUNNING time), the subtasks' start after the job's: the least counter age of
   * its polls at least {@value #MIN_RUN_SECONDS} s in. Flink refreshes the counters every 10 s by
   * default, so some poll of a run that long reads them within about a second of a refresh; what is
   * left of the least age is the start. Taken as whole, it placed the counters' span seconds too
   * early (2.6 s at 12 source subtasks on a busy machine): on a load falling, the schedule there
   * was higher, and a job that kept up read as 1-2 % behind; on a rise, a shortfall was hidden.
   */
  static Map<Instant, Double> startOffsets(List<KeepsUp.Sampled> sampled, Set<String> sources) {
    Map<Instant, Double> offsets = new HashMap<>();
    for (KeepsUp.Sampled p : sampled) {
      Instant since = p.sample().runningSince();
      if (Duration.between(since, p.sample().time()).toMillis() < MIN_RUN_SECONDS * 1000) {
        continue;
      }
      counterAge(p, sources).ifPresent(a -> offsets.merge(since, Math.max(0, a), Math::min));
    }
    return offsets;
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
