package io.ds2.model.window;

import io.ds2.model.graph.Vertex;
import io.ds2.model.window.SubtaskSample.Counter;
import java.time.Duration;
import java.util.ArrayList;
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

  private static final Counter[] MONOTONIC = {
    Counter.RECORDS_IN, Counter.RECORDS_OUT, Counter.IDLE_TIME_MS, Counter.BACK_PRESSURED_TIME_MS
  };

  private VertexWindow() {}

  /** A vertex observed, or why it cannot be yet. */
  sealed interface Outcome {}

  record Observed(VertexObservation observation) implements Outcome {}

  record Refused(WindowResult.NotReady why) implements Outcome {}

  /** A poll at which the vertex had new values. */
  private record Reading(JobSample poll, VertexSample values) {}

  /**
   * @param points the window's change points (polls at which some value of the job changed)
   */
  static Outcome observe(Vertex v, List<JobSample> points) {
    List<Reading> readings = freshReadings(v.id(), points);
    if (readings.size() < 2) {
      return notRefreshed(v);
    }
    Optional<WindowResult.NotReady> restarted = checkMonotonic(v, readings);
    if (restarted.isPresent()) {
      return new Refused(restarted.get());
    }
    Reading first = readings.get(0);
    Reading last = readings.get(readings.size() - 1);
    VertexSample a = first.values();
    VertexSample b = last.values();
    TaskClock.Elapsed elapsed = TaskClock.between(a, b, pollSeconds(first.poll(), last.poll()));
    if (elapsed.seconds() <= 0) {
      return notRefreshed(v);
    }
    List<SubtaskSample> deltas = new ArrayList<>();
    for (int i = 0; i < a.subtasks().size(); i++) {
      deltas.add(subtaskDelta(i, readings, elapsed.seconds()));
    }
    return new Observed(
        new VertexObservation(
            v.id(),
            a.parallelism(),
            elapsed.seconds(),
            elapsed.base(),
            sumOf(deltas, Counter.RECORDS_IN).orElse(0),
            sumOf(deltas, Counter.RECORDS_OUT).orElse(0),
            sumOf(deltas, Counter.BUSY_TIME_MS),
            sumOf(deltas, Counter.IDLE_TIME_MS),
            sumOf(deltas, Counter.BACK_PRESSURED_TIME_MS),
            deltas,
            SourceBacklog.fit(polls(readings), v.id())));
  }

  private static List<JobSample> polls(List<Reading> readings) {
    List<JobSample> polls = new ArrayList<>(readings.size());
    for (Reading r : readings) {
      polls.add(r.poll());
    }
    return polls;
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
  private static List<Reading> freshReadings(String id, List<JobSample> points) {
    List<Reading> readings = new ArrayList<>();
    for (JobSample p : points) {
      VertexSample v = p.vertices().get(id);
      if (readings.isEmpty() || !readings.get(readings.size() - 1).values().equals(v)) {
        readings.add(new Reading(p, v));
      }
    }
    return readings;
  }

  private static Optional<WindowResult.NotReady> checkMonotonic(Vertex v, List<Reading> readings) {
    for (int k = 1; k < readings.size(); k++) {
      List<SubtaskSample> before = readings.get(k - 1).values().subtasks();
      List<SubtaskSample> after = readings.get(k).values().subtasks();
      for (int i = 0; i < before.size(); i++) {
        SubtaskSample x = before.get(i);
        SubtaskSample y = after.get(i);
        int both = x.presentMask() & y.presentMask();
        for (Counter c : MONOTONIC) {
          int o = c.ordinal();
          if ((both & (1 << o)) != 0 && y.raw(o) < x.raw(o)) {
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
                        readings.get(k).poll().time())));
          }
        }
      }
    }
    return Optional.empty();
  }

  private static SubtaskSample subtaskDelta(int i, List<Reading> readings, double vertexSeconds) {
    SubtaskSample a = readings.get(0).values().subtasks().get(i);
    SubtaskSample b = readings.get(readings.size() - 1).values().subtasks().get(i);
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
  private static double busy(int i, List<Reading> readings, double limitMs, int present) {
    SubtaskSample a = readings.get(0).values().subtasks().get(i);
    SubtaskSample b = readings.get(readings.size() - 1).values().subtasks().get(i);
    double busy = deltaOf(a, b, Counter.BUSY_TIME_MS, present);
    // Two readings cannot beat their own ends; most windows of a 10 s store have three or four.
    if (readings.size() >= MIN_FIT_READINGS && (present & 1 << Counter.RECORDS_IN.ordinal()) != 0) {
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
  private static OptionalDouble busyPerRecord(int i, List<Reading> readings) {
    SimpleRegression fit = new SimpleRegression();
    Set<Double> distinct = new HashSet<>();
    for (Reading r : readings) {
      SubtaskSample s = r.values().subtasks().get(i);
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
    return Duration.between(from.time(), to.time()).toNanos() / 1e9;
  }

  static OptionalDouble sumOf(List<SubtaskSample> subtasks, Counter c) {
    int o = c.ordinal();
    double total = 0;
    for (int i = 0; i < subtasks.size(); i++) {
      SubtaskSample s = subtasks.get(i);
      if ((s.presentMask() & (1 << o)) == 0) {
        return OptionalDouble.empty();
      }
      total += s.raw(o);
    }
    return OptionalDouble.of(total);
  }
}
