package io.ds2.core.window;

import io.ds2.core.graph.Vertex;
import io.ds2.core.window.SubtaskSample.Counter;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * One vertex over a window: its own fresh readings, counter deltas per subtask, derived busy time
 * and backlog.
 *
 * <p><b>Which readings are counters.</b> Records in/out and idle and back-pressured time only grow
 * while a task runs; one of them going down means the task restarted. Busy time is not counted by
 * Flink but derived when read: {@code max(now - task start - idle - back-pressured, 0)}, where idle
 * and back-pressured time hold only the part of a stall that Flink has accounted (at the stall's
 * end, or at its 5 s metric view tick). So a task in a stall looks busy until the stall is
 * accounted, and its busy time falls then: that is no restart, and busy time is never checked for
 * it.
 *
 * <p><b>Busy over the window.</b> The unaccounted stall at a reading (at most 5 s, mostly far less)
 * is noise on top of the true busy time, never below it. Two readings take that noise at two
 * instants (±9 % on the true rate of a back-pressured vertex over 30 s windows, measured here); a
 * least-squares fit of cumulative busy time on cumulative records read over every fresh reading of
 * the window averages it out (±5 %): the slope is the busy time per record, independent of how the
 * input rate varied. Busy over the window is that slope times the records read, clamped to [0,
 * elapsed]. With fewer than {@value #MIN_FIT_READINGS} distinct readings, the two ends are used.
 */
final class VertexWindow {
  /** Distinct readings a fit of busy time per record needs before it replaces the two ends. */
  static final int MIN_FIT_READINGS = 3;

  // bits by ordinal of the counters that only grow while a task runs
  private static final int MONOTONIC =
      1 << Counter.RECORDS_IN.ordinal()
          | 1 << Counter.RECORDS_OUT.ordinal()
          | 1 << Counter.IDLE_TIME_MS.ordinal()
          | 1 << Counter.BACK_PRESSURED_TIME_MS.ordinal();

  private VertexWindow() {}

  /** A vertex observed, or why it cannot be yet. */
  sealed interface Outcome {}

  record Observed(VertexObservation observation) implements Outcome {}

  record Refused(WindowResult.NotReady why) implements Outcome {}

  /**
   * The polls at which the vertex had new values, and those values, first to last. Arrays, not a
   * list of pairs, and one for a whole window reused vertex after vertex: at 1,000 vertices, a list
   * per vertex was a tenth of the window's allocation.
   */
  static final class Readings {
    final JobSample[] polls;
    final VertexSample[] values;
    int size;
    // for the task clock's median over subtasks
    double[] scratch = new double[0];

    Readings(int capacity) {
      polls = new JobSample[capacity];
      values = new VertexSample[capacity];
    }

    void add(JobSample poll, VertexSample v) {
      polls[size] = poll;
      values[size] = v;
      size++;
    }

    VertexSample last() {
      return values[size - 1];
    }

    double[] scratch(int n) {
      if (scratch.length < n) {
        scratch = new double[n];
      }
      return scratch;
    }

    void clear() {
      size = 0;
    }
  }

  /**
   * @param points the window's change points (polls at which some value of the job changed)
   * @param values each point's values of every vertex, by topological position
   * @param pos the vertex's topological position
   * @param scratch reused for the vertex's readings (held only during the call)
   * @param leadIn the vertex's fresh readings of the same run from before the window, for a
   *     source's arrival rate (empty for other vertices)
   * @param age a source's backlog gauge's age at its first reading (lead-in's, else the window's);
   *     null for other vertices
   */
  static Outcome observe(
      Vertex v,
      int pos,
      JobSample[] points,
      VertexSample[][] values,
      Readings scratch,
      Readings leadIn,
      GaugeAge age) {
    Readings readings = freshReadings(pos, points, values, scratch);
    if (readings.size < 2) {
      return notRefreshed(v);
    }
    Optional<WindowResult.NotReady> restarted = checkMonotonic(v, readings);
    if (restarted.isPresent()) {
      return new Refused(restarted.get());
    }
    VertexSample a = readings.values[0];
    VertexSample b = readings.last();
    TaskClock.Elapsed elapsed =
        TaskClock.between(
            a,
            b,
            pollSeconds(readings.polls[0], readings.polls[readings.size - 1]),
            readings.scratch(a.subtasks().size()));
    if (elapsed.seconds() <= 0) {
      return notRefreshed(v);
    }
    SubtaskSample[] deltas = new SubtaskSample[a.subtasks().size()];
    for (int i = 0; i < deltas.length; i++) {
      deltas[i] = subtaskDelta(i, readings, elapsed.seconds());
    }
    List<SubtaskSample> subtaskDeltas = List.of(deltas);
    Optional<Backlog> backlog =
        age == null ? Optional.empty() : SourceBacklog.fit(readings, leadIn, age);
    VertexObservation observed =
        new VertexObservation(
            v.id(),
            a.parallelism(),
            elapsed.seconds(),
            elapsed.base(),
            sumOrZero(subtaskDeltas, Counter.RECORDS_IN),
            sumOrZero(subtaskDeltas, Counter.RECORDS_OUT),
            sumOf(subtaskDeltas, Counter.BUSY_TIME_MS),
            sumOf(subtaskDeltas, Counter.IDLE_TIME_MS),
            sumOf(subtaskDeltas, Counter.BACK_PRESSURED_TIME_MS),
            subtaskDeltas,
            backlog,
            b.splits(),
            Optional.empty()); // the records' age: once the window is made (SourceAge.attach)
    if (age != null && backlog.isEmpty() && heldBackWithGaugeStanding(readings, observed)) {
      return new Refused(
          new WindowResult.NotReady(
              WindowProblem.TOO_FEW_SAMPLES,
              String.format(
                  Locale.ROOT,
                  "waiting for the backlog gauge of source %s to move: it stood all window while"
                      + " its job held the source back (back-pressured %.0f %%), and what a"
                      + " held-back source reads says nothing of what arrives",
                  v.name(),
                  100 * observed.backPressuredRatio().orElse(0))));
    }
    return new Observed(observed);
  }

  /**
   * A source with a backlog gauge, held back by its job, whose gauge gave no fit: it stood over the
   * whole window (its consumer, held back, fetched nothing: {@link GaugeAge}). Its window would
   * leave the estimate only back-pressure to extrapolate from, which reads nothing of what arrives:
   * on the sub-linear job at Flink's defaults, a source that read 1 record in 30 s held back made
   * 0.7 records/s of demand where 360/s arrived. The window waits for the gauge to move instead (at
   * most as long as any window may take).
   */
  private static boolean heldBackWithGaugeStanding(Readings readings, VertexObservation observed) {
    return SourceBacklog.gaugeReadings(readings) >= 2
        && observed.backPressuredRatio().orElse(0) > VertexObservation.NEGLIGIBLE_BACKPRESSURE;
  }

  private static Refused notRefreshed(Vertex v) {
    return new Refused(
        new WindowResult.NotReady(
            WindowProblem.TOO_FEW_SAMPLES,
            "waiting for Flink to refresh the metrics of vertex " + v.name()));
  }

  /**
   * The vertex's values at each change point, without repeats: Flink's metric store refreshes
   * subtasks as their TaskManagers answer, so a poll may hold new values for some vertices and the
   * previous ones for others. A repeated reading is stale, not "no progress": a running task's
   * elapsed time always advances.
   */
  static Readings freshReadings(
      int pos, JobSample[] points, VertexSample[][] values, Readings readings) {
    readings.clear();
    for (int k = 0; k < points.length; k++) {
      VertexSample v = values[k][pos];
      if (readings.size == 0 || !readings.last().equals(v)) {
        readings.add(points[k], v);
      }
    }
    return readings;
  }

  private static Optional<WindowResult.NotReady> checkMonotonic(Vertex v, Readings readings) {
    for (int k = 1; k < readings.size; k++) {
      List<SubtaskSample> before = readings.values[k - 1].subtasks();
      List<SubtaskSample> after = readings.values[k].subtasks();
      for (int i = 0; i < before.size(); i++) {
        SubtaskSample x = before.get(i);
        SubtaskSample y = after.get(i);
        int o = x.firstDecrease(y, MONOTONIC);
        if (o >= 0) {
          Counter c = Counter.values()[o];
          return Optional.of(
              new WindowResult.NotReady(
                  WindowProblem.COUNTER_DECREASED,
                  String.format(
                      Locale.ROOT,
                      "%s of vertex %s subtask %d went down from %.0f to %.0f at %s: the task"
                          + " restarted",
                      c.flinkName(),
                      v.name(),
                      i,
                      x.raw(o),
                      y.raw(o),
                      readings.polls[k].time())));
        }
      }
    }
    return Optional.empty();
  }

  private static SubtaskSample subtaskDelta(int i, Readings readings, double vertexSeconds) {
    SubtaskSample a = readings.values[0].subtasks().get(i);
    SubtaskSample b = readings.last().subtasks().get(i);
    // A delta is known where both ends are; busy time is then refined below.
    int present = a.presentMask() & b.presentMask();
    double elapsedMs = hasTotal(a) && hasTotal(b) ? totalMs(b) - totalMs(a) : 0;
    double limitMs = elapsedMs > 0 ? elapsedMs : vertexSeconds * 1000;
    double busy = 0;
    int busyBit = 1 << Counter.BUSY_TIME_MS.ordinal();
    if ((present & busyBit) != 0) {
      busy = busy(i, readings, limitMs, present);
    }
    return new SubtaskSample(
        a.subtask(),
        deltaOf(a, b, Counter.RECORDS_IN, present),
        deltaOf(a, b, Counter.RECORDS_OUT, present),
        busy,
        deltaOf(a, b, Counter.IDLE_TIME_MS, present),
        deltaOf(a, b, Counter.BACK_PRESSURED_TIME_MS, present),
        present);
  }

  private static double deltaOf(SubtaskSample a, SubtaskSample b, Counter c, int present) {
    int o = c.ordinal();
    return (present & (1 << o)) != 0 ? b.raw(o) - a.raw(o) : 0;
  }

  /**
   * Busy time of subtask {@code i} over the window (see the class comment); both ends report busy
   * time.
   */
  private static double busy(int i, Readings readings, double limitMs, int present) {
    SubtaskSample a = readings.values[0].subtasks().get(i);
    SubtaskSample b = readings.last().subtasks().get(i);
    double busy = deltaOf(a, b, Counter.BUSY_TIME_MS, present);
    // Two readings cannot beat their own ends; most windows of a 10 s store have three or four.
    if (readings.size >= MIN_FIT_READINGS && (present & 1 << Counter.RECORDS_IN.ordinal()) != 0) {
      OptionalDouble perRecord = busyPerRecord(i, readings);
      if (perRecord.isPresent()) {
        busy = perRecord.getAsDouble() * deltaOf(a, b, Counter.RECORDS_IN, present);
      }
    }
    return Math.max(0, Math.min(limitMs, busy));
  }

  /**
   * The least-squares slope of cumulative busy time on cumulative records read, if enough distinct
   * readings back it and it is positive.
   */
  private static OptionalDouble busyPerRecord(int i, Readings readings) {
    SimpleRegression fit = new SimpleRegression();
    Set<Double> distinct = new HashSet<>();
    for (int k = 0; k < readings.size; k++) {
      SubtaskSample s = readings.values[k].subtasks().get(i);
      if (s.has(Counter.RECORDS_IN) && s.has(Counter.BUSY_TIME_MS)) {
        fit.addData(s.value(Counter.RECORDS_IN), s.value(Counter.BUSY_TIME_MS));
        distinct.add(s.value(Counter.RECORDS_IN));
      }
    }
    return distinct.size() >= MIN_FIT_READINGS && fit.getSlope() > 0
        ? OptionalDouble.of(fit.getSlope())
        : OptionalDouble.empty();
  }

  private static final int TIME_BITS =
      1 << Counter.BUSY_TIME_MS.ordinal()
          | 1 << Counter.IDLE_TIME_MS.ordinal()
          | 1 << Counter.BACK_PRESSURED_TIME_MS.ordinal();

  /** Whether busy, idle and back-pressured time are all reported: the task's clock is known. */
  static boolean hasTotal(SubtaskSample s) {
    return (s.presentMask() & TIME_BITS) == TIME_BITS;
  }

  /** Busy + idle + back-pressured time: the task's elapsed time as Flink read it. */
  static double totalMs(SubtaskSample s) {
    return s.raw(Counter.BUSY_TIME_MS.ordinal())
        + s.raw(Counter.IDLE_TIME_MS.ordinal())
        + s.raw(Counter.BACK_PRESSURED_TIME_MS.ordinal());
  }

  static double pollSeconds(JobSample from, JobSample to) {
    // Not through Duration: one per vertex and window adds up at 1,000 vertices.
    Instant a = from.time();
    Instant b = to.time();
    return (b.getEpochSecond() - a.getEpochSecond()) + (b.getNano() - a.getNano()) / 1e9;
  }

  static OptionalDouble sumOf(List<SubtaskSample> subtasks, Counter c) {
    return reportedByAll(subtasks, c)
        ? OptionalDouble.of(rawSum(subtasks, c))
        : OptionalDouble.empty();
  }

  /** The sum over subtasks, 0 where a subtask does not report the counter (no allocation). */
  static double sumOrZero(List<SubtaskSample> subtasks, Counter c) {
    return reportedByAll(subtasks, c) ? rawSum(subtasks, c) : 0;
  }

  private static boolean reportedByAll(List<SubtaskSample> subtasks, Counter c) {
    int bit = 1 << c.ordinal();
    for (int i = 0; i < subtasks.size(); i++) {
      if ((subtasks.get(i).presentMask() & bit) == 0) {
        return false;
      }
    }
    return true;
  }

  private static double rawSum(List<SubtaskSample> subtasks, Counter c) {
    int o = c.ordinal();
    double total = 0;
    for (int i = 0; i < subtasks.size(); i++) {
      total += subtasks.get(i).raw(o);
    }
    return total;
  }
}
