package io.ds2.core.window;

import java.util.Arrays;
import java.util.OptionalDouble;

/**
 * Elapsed time between two samples of one vertex, preferably by Flink's own task time.
 *
 * <p>Flink does not say when its metric store was refreshed, so poll times are off by up to a poll
 * interval (2 % over a 12 s window was measured here), and one poll can even straddle a refresh
 * (sources from one, operators from the next). But per subtask, busy + idle + back-pressured time
 * is elapsed task time, read in the same refresh as the counters: the median over subtasks is an
 * exact clock for that vertex's values.
 */
final class TaskClock {
  // A task clock further than this from poll time is broken (e.g. a stalled subtask): fall back.
  private static final double MAX_RELATIVE_GAP = 0.25;
  private static final double MAX_ABSOLUTE_GAP_SECONDS = 12; // a 10 s fetch interval + polling

  private TaskClock() {}

  record Elapsed(double seconds, TimeBase base) {}

  /**
   * @param scratch at least one slot per subtask, to take the median in (reused by the caller)
   */
  static Elapsed between(VertexSample a, VertexSample b, double pollSeconds, double[] scratch) {
    OptionalDouble task = taskSeconds(a, b, scratch);
    if (task.isPresent()) {
      double gap = Math.abs(task.getAsDouble() - pollSeconds);
      if (gap <= MAX_RELATIVE_GAP * pollSeconds + MAX_ABSOLUTE_GAP_SECONDS) {
        return new Elapsed(task.getAsDouble(), TimeBase.TASK_TIME);
      }
    }
    return new Elapsed(pollSeconds, TimeBase.POLL_TIME);
  }

  private static OptionalDouble taskSeconds(VertexSample a, VertexSample b, double[] perSubtask) {
    int n = Math.min(a.subtasks().size(), b.subtasks().size());
    if (n == 0) {
      return OptionalDouble.empty();
    }
    for (int i = 0; i < n; i++) {
      SubtaskSample sa = a.subtasks().get(i);
      SubtaskSample sb = b.subtasks().get(i);
      if (!VertexWindow.hasTotal(sa) || !VertexWindow.hasTotal(sb)) {
        return OptionalDouble.empty();
      }
      double ta = VertexWindow.totalMs(sa);
      double tb = VertexWindow.totalMs(sb);
      if (tb < ta) {
        return OptionalDouble.empty();
      }
      perSubtask[i] = (tb - ta) / 1000.0;
    }
    Arrays.sort(perSubtask, 0, n);
    return OptionalDouble.of(
        n % 2 == 1 ? perSubtask[n / 2] : (perSubtask[n / 2 - 1] + perSubtask[n / 2]) / 2);
  }
}
