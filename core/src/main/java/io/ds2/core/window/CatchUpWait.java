package io.ds2.core.window;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.window.SubtaskSample.Counter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Waits out a restart's backlog before a window of the new run starts: "never decide on
 * post-restart metrics" for as long as the restart's effects last, not only the warm-up.
 *
 * <p>A job restored from a checkpoint (every rescale) starts behind its sources' heads: its sources
 * read what arrived while it was down, and what stood before, faster than records arrive. Where a
 * source's lag gauge shows that backlog falling, its arrival is read right; where it cannot (held
 * back by its job, a consumer fetches nothing and its lag stands; at Kafka's default fetch it holds
 * records its lag does not count) the lag reads about what the source read as arriving: what the
 * job takes. On Nexmark at Flink's defaults (1,685 and 1,467 records/s arriving) the windows after
 * the first rescale read 2,408 and 2,082/s, 1,673 and 1,737/s, 2,034 and 2,022/s, and sized the job
 * for them: 20 -> 28 where 23 keeps below 0.7, 19 -> 23 where 20 does, 19 -> 32 for ~26. The Flink
 * autoscaler waits a fixed stabilization interval after a rescale (5 min by default).
 *
 * <p>So where a run's earliest reading shows a source's records older than the run, the run's
 * windows start once every subtask of every such source emits records at most {@value
 * SourceAge#HEADS_SECONDS} s old (caught up), and at the latest {@code max} after the restart: a
 * job that cannot catch up is decided on then, or as soon as its backlog gauge shows it falling
 * further behind ({@link #fallingBehind}). Only a source seen at its heads before (its records that
 * young at some reading, or younger than their run at one of its first readings: {@link
 * #freshEventTimes}) is waited for: one whose records carry older event times by design would never
 * be seen caught up. A source that does not report its records' age is not waited for.
 */
final class CatchUpWait {
  /** Nothing waited for (a builder given no catch-up time). */
  static final CatchUpWait NONE = new CatchUpWait(Duration.ZERO);

  /**
   * When the run's windows may start.
   *
   * @param catchingUp whether a source is still behind, before the latest start
   * @param from the earliest a window's first point may be (the warm-up's end, or later)
   * @param detail what is waited for, where it is
   */
  record Start(boolean catchingUp, Instant from, String detail) {}

  /** How much of its read a backlog must grow by a second to show the job falling behind. */
  static final double GROWING_SHARE = 0.02;

  /**
   * How many metric refreshes a backlog's growth is fitted over before it says so; the refresh is
   * read from the readings themselves (the median gap between distinct ones), so that a 1 s refresh
   * asks for 6 s where Flink's default 10 s asks for a minute.
   */
  static final int GROWTH_REFRESHES = 6;

  /** The longest span asked for, whatever the gaps between readings: a minute. */
  static final double GROWTH_SPAN_SECONDS = 60;

  private final Duration max;

  /** Sources whose records were seen at most {@link SourceAge#HEADS_SECONDS} old, by vertex id. */
  private final Set<String> seenAtHeads = new HashSet<>();

  /**
   * @param max the longest a restart's backlog is waited out, from the restart
   */
  CatchUpWait(Duration max) {
    this.max = max;
  }

  /**
   * When the windows of {@code samples}' run may start.
   *
   * @param earlierLatestFirst the run's polls before {@code samples}, latest first
   * @param warmedUp the end of the run's warm-up
   */
  Start start(
      JobGraph graph,
      List<JobSample> earlierLatestFirst,
      List<JobSample> samples,
      Instant warmedUp) {
    if (max.isZero()) {
      return new Start(false, warmedUp, "");
    }
    List<JobSample> run = new ArrayList<>(earlierLatestFirst.size() + samples.size());
    for (int k = earlierLatestFirst.size() - 1; k >= 0; k--) {
      run.add(earlierLatestFirst.get(k));
    }
    run.addAll(samples);
    Instant since = samples.get(0).runningSince();
    List<String> behind = new ArrayList<>();
    double oldest = 0;
    for (Vertex v : graph.sources()) {
      boolean first = true;
      for (JobSample s : run) {
        VertexSample r = s.vertices().get(v.id());
        double age = r == null ? Double.NaN : oldest(r);
        if (Double.isNaN(age)) {
          continue;
        }
        double runSeconds = Duration.between(s.runningSince(), s.time()).toMillis() / 1000.0;
        if (freshEventTimes(youngest(r), runSeconds)) {
          seenAtHeads.add(v.id());
        }
        if (first) {
          first = false;
          if (age > runSeconds && seenAtHeads.contains(v.id())) {
            behind.add(v.id());
            oldest = Math.max(oldest, age);
          }
        }
      }
    }
    if (behind.isEmpty()) {
      return new Start(false, warmedUp, "");
    }
    Instant latest = since.plus(max);
    for (String id : behind) {
      if (fallingBehind(run, id, warmedUp)) {
        return new Start(false, warmedUp, ""); // its windows show what the job lacks: no wait
      }
    }
    for (JobSample s : run) {
      if (s.time().isAfter(latest)) {
        break;
      }
      boolean caughtUp = true;
      for (String id : behind) {
        VertexSample r = s.vertices().get(id);
        caughtUp &= r != null && oldest(r) <= SourceAge.HEADS_SECONDS;
      }
      if (caughtUp) {
        return new Start(false, later(warmedUp, s.time()), "");
      }
    }
    Instant now = samples.get(samples.size() - 1).time();
    if (!now.isBefore(latest)) {
      return new Start(false, later(warmedUp, latest), "");
    }
    return new Start(
        true,
        later(warmedUp, latest),
        String.format(
            Locale.ROOT,
            "job restarted at %s behind its sources' heads (records up to %.0f s old): its"
                + " windows start once they have caught up, at the latest at %s",
            since,
            oldest,
            latest));
  }

  /**
   * Whether source {@code id}'s backlog gauge grew, over the run's readings since its warm-up
   * ({@link #GROWTH_REFRESHES} refreshes or more, at most {@link #GROWTH_SPAN_SECONDS}), by more
   * than {@link #GROWING_SHARE} of what it read: the job falls further behind, and waiting for it
   * to catch up only delays the step it needs. A drain never shows that: where the gauge cannot
   * show the backlog falling it stands (a consumer held back fetches nothing; one at Kafka's
   * default fetch holds records its lag does not count). On the stored runs restored behind, the
   * gauge's slope (Theil-Sen, from restart to catch-up or 3 min) was -22 % to 0 % of the read over
   * the drains, +3.2 % to +16.2 % where the job fell further behind (Nexmark Q3 at 19 instances for
   * 24, Q1 and Q5 short), 0 % and -1 % where a blind gauge hid it (those wait the cap).
   */
  private static boolean fallingBehind(List<JobSample> run, String id, Instant warmedUp) {
    List<VertexSample> readings = new ArrayList<>();
    List<Instant> at = new ArrayList<>();
    for (JobSample s : run) {
      VertexSample r = s.vertices().get(id);
      boolean fresh = r != null && r.pendingRecords().isPresent() && !s.time().isBefore(warmedUp);
      if (fresh && (readings.isEmpty() || !readings.get(readings.size() - 1).equals(r))) {
        readings.add(r);
        at.add(s.time());
      }
    }
    int n = readings.size();
    if (n < SourceAge.MIN_POINTS) {
      return false;
    }
    double span = Duration.between(at.get(0), at.get(n - 1)).toMillis() / 1000.0;
    double needed = Math.min(GROWTH_SPAN_SECONDS, GROWTH_REFRESHES * medianGap(at));
    VertexSample first = readings.get(0);
    VertexSample last = readings.get(n - 1);
    Counter read = SourceBacklog.readCounter(first, last);
    OptionalDouble done0 = VertexWindow.sumOf(first.subtasks(), read);
    OptionalDouble done1 = VertexWindow.sumOf(last.subtasks(), read);
    if (span < needed || done0.isEmpty() || done1.isEmpty()) {
      return false;
    }
    double[] seconds = new double[n];
    double[] pending = new double[n];
    for (int k = 0; k < n; k++) {
      seconds[k] = Duration.between(at.get(0), at.get(k)).toMillis() / 1000.0;
      pending[k] = readings.get(k).pendingRecords().getAsDouble();
    }
    double readRate = (done1.getAsDouble() - done0.getAsDouble()) / span;
    return readRate > 0 && SourceAge.theilSen(seconds, pending, 0, n) > GROWING_SHARE * readRate;
  }

  /** The median gap between consecutive readings, seconds: the metric store's refresh. */
  private static double medianGap(List<Instant> at) {
    double[] gaps = new double[at.size() - 1];
    for (int k = 1; k < at.size(); k++) {
      gaps[k - 1] = Duration.between(at.get(k - 1), at.get(k)).toMillis() / 1000.0;
    }
    Arrays.sort(gaps);
    int m = gaps.length / 2;
    return gaps.length % 2 == 1 ? gaps[m] : (gaps[m - 1] + gaps[m]) / 2;
  }

  /**
   * The oldest record any subtask emitted last, seconds; NaN where none says (a subtask that reads
   * no split emits nothing, and says nothing, for as long as it runs).
   */
  private static double oldest(VertexSample r) {
    double oldest = Double.NaN;
    for (OptionalDouble ms : r.emitLagMs()) {
      if (ms.isPresent()) {
        oldest =
            Double.isNaN(oldest)
                ? ms.getAsDouble() / 1000
                : Math.max(oldest, ms.getAsDouble() / 1000);
      }
    }
    return oldest;
  }

  private static double youngest(VertexSample r) {
    double youngest = Double.MAX_VALUE;
    for (OptionalDouble ms : r.emitLagMs()) {
      youngest = Math.min(youngest, ms.orElse(Double.MAX_VALUE) / 1000);
    }
    return youngest;
  }

  /**
   * Whether a subtask's records, {@code age} seconds old {@code runSeconds} into their run, show
   * event times that are fresh: at most {@link SourceAge#HEADS_SECONDS} old, or, at one of a run's
   * first readings (within {@link SourceAge#FIRST_READING_SECONDS}), no older than the run (a run
   * that started at its heads and fell behind before Flink's first metric refresh: the headline's
   * Orders source, 1 instance for 400/s, was 6.6 s behind 14 s into its run and never nearer).
   */
  static boolean freshEventTimes(double age, double runSeconds) {
    return age <= SourceAge.HEADS_SECONDS
        || (runSeconds <= SourceAge.FIRST_READING_SECONDS && age <= runSeconds);
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
