package io.ds2.experiments.bench;

import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.SubtaskSample.Counter;
import io.ds2.core.window.VertexSample;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Whether a run is fit to be scored: a phase that starts with an operator below its oracle must
 * show the overload where production would, at the sources, within {@value #WITHIN_SECONDS} s (or
 * {@value #WITHIN_REFRESHES} metric refreshes, if longer: at Flink's default 10 s refresh a poll
 * holds new values only every 10 s, and the backlog gauge is first reported after one): the sources
 * back-pressured for {@value #MIN_BACK_PRESSURE} of their time or more, a source subtask saturated
 * (its chain the bottleneck), or their backlog (consumer lag) growing by {@value #MIN_GROWTH} of
 * the demand or more. An overload that only fills network buffers is invisible to any controller
 * reading the sources, and a benchmark that hides it measures nothing.
 */
final class OverloadCheck {
  static final double WITHIN_SECONDS = 30;
  static final int WITHIN_REFRESHES = 4;
  static final double MIN_BACK_PRESSURE = 0.1;
  static final double MIN_GROWTH = 0.01;

  /**
   * A source subtask busy this share of its time shows its overload to a controller reading busy
   * time (ds2 takes it as never waiting for records); a Flink task saturated by its own work
   * reports 97-98 % busy, the rest its own overhead (measured at parallelism 1 on the fan-in).
   */
  static final double SATURATED_SOURCE = 0.95;

  // the overload is judged over at least this much of the phase's first run (before a restart)
  private static final double MIN_SPAN_SECONDS = 5;

  private OverloadCheck() {}

  /**
   * @param sampled the run's RUNNING polls in time order
   * @param from the phase's start, seconds after the run's start
   * @param parallelism operator name to parallelism at the phase's start
   * @param oracle operator name to the phase's oracle
   * @param demand records/s the sources had to emit in the phase
   * @param refresh seconds between polls that can hold new values (Flink's metric refresh)
   * @return empty when the phase did not start overloaded (or too little of it was recorded to
   *     tell); else whether the overload showed at the sources
   */
  static Boolean shown(
      List<KeepsUp.Sampled> sampled,
      double from,
      Map<String, Integer> parallelism,
      Map<String, Integer> oracle,
      double demand,
      Set<String> sources,
      double refresh) {
    double within = Math.max(WITHIN_SECONDS, WITHIN_REFRESHES * refresh);
    boolean overloaded =
        oracle.entrySet().stream()
            .anyMatch(e -> parallelism.getOrDefault(e.getKey(), e.getValue()) < e.getValue());
    if (!overloaded) {
      return null;
    }
    KeepsUp.Sampled a = null;
    KeepsUp.Sampled b = null;
    for (KeepsUp.Sampled s : sampled) {
      if (s.t() < from || s.t() > from + within) {
        continue;
      }
      if (a == null) {
        a = s;
      } else if (s.sample().runningSince().equals(a.sample().runningSince())) {
        b = s;
      }
    }
    if (a == null || b == null || b.t() - a.t() < MIN_SPAN_SECONDS) {
      return null;
    }
    return backPressure(a.sample(), b.sample(), sources) >= MIN_BACK_PRESSURE
        || saturatedSince(sampled, a, b, sources)
        || backlog(b.sample(), sources) - backlog(a.sample(), sources)
            >= MIN_GROWTH * demand * (b.t() - a.t());
  }

  /**
   * Whether a source subtask was saturated from some poll between {@code a} and {@code b} (of the
   * same run, {@value #MIN_SPAN_SECONDS} s or more before {@code b}) up to {@code b}: a source that
   * waited for its first records when the phase began is saturated from when they came.
   */
  private static boolean saturatedSince(
      List<KeepsUp.Sampled> sampled, KeepsUp.Sampled a, KeepsUp.Sampled b, Set<String> sources) {
    for (KeepsUp.Sampled s : sampled) {
      if (s.t() < a.t() || b.t() - s.t() < MIN_SPAN_SECONDS) {
        continue;
      }
      if (s.sample().runningSince().equals(b.sample().runningSince())
          && busiestSource(s.sample(), b.sample(), sources) >= SATURATED_SOURCE) {
        return true;
      }
    }
    return false;
  }

  /**
   * The busiest source subtask's busy share between two polls: a source chain that is itself the
   * bottleneck shows its overload in its own busy time, whatever its lag gauge says (a Kafka
   * consumer at its default fetch hides what waits).
   */
  private static double busiestSource(JobSample a, JobSample b, Set<String> sources) {
    double busiest = 0;
    for (String id : sources) {
      VertexSample x = a.vertices().get(id);
      VertexSample y = b.vertices().get(id);
      if (x == null || y == null || x.subtasks().size() != y.subtasks().size()) {
        continue;
      }
      for (int i = 0; i < x.subtasks().size(); i++) {
        busiest = Math.max(busiest, KeepsUp.busy(x.subtasks().get(i), y.subtasks().get(i)));
      }
    }
    return busiest;
  }

  /** The sources' back-pressured share of their time between two polls. */
  private static double backPressure(JobSample a, JobSample b, Set<String> sources) {
    double pressured = 0;
    double total = 0;
    for (String id : sources) {
      VertexSample x = a.vertices().get(id);
      VertexSample y = b.vertices().get(id);
      if (x == null || y == null || x.subtasks().size() != y.subtasks().size()) {
        continue;
      }
      for (int i = 0; i < x.subtasks().size(); i++) {
        SubtaskSample p = x.subtasks().get(i);
        SubtaskSample q = y.subtasks().get(i);
        double bp = delta(p, q, Counter.BACK_PRESSURED_TIME_MS);
        pressured += bp;
        total += bp + delta(p, q, Counter.BUSY_TIME_MS) + delta(p, q, Counter.IDLE_TIME_MS);
      }
    }
    return total > 0 ? pressured / total : 0;
  }

  private static double backlog(JobSample s, Set<String> sources) {
    double pending = 0;
    for (String id : sources) {
      VertexSample v = s.vertices().get(id);
      pending += v == null ? 0 : v.pendingRecords().orElse(0);
    }
    return pending;
  }

  private static double delta(SubtaskSample x, SubtaskSample y, Counter c) {
    OptionalDouble a = x.get(c);
    OptionalDouble b = y.get(c);
    return a.isPresent() && b.isPresent() ? Math.max(0, b.getAsDouble() - a.getAsDouble()) : 0;
  }
}
