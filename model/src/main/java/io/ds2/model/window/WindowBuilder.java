package io.ds2.model.window;

import io.ds2.model.graph.JobGraph;
import io.ds2.model.graph.Vertex;
import io.ds2.model.window.SubtaskSample.Counter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns raw job samples into a clean observation window, or says why it cannot.
 *
 * <p>Flink's REST metric store refreshes on its own schedule ({@code metrics.fetcher
 * .update-interval}, 10 s by default) and does not say when. Repeated polls return the same values,
 * so the window is cut at <em>change points</em>: the first poll at which new values appeared. Each
 * vertex is then timed by Flink's own task time and observed over its own fresh readings ({@link
 * VertexWindow}). A restart shows as a new job start time, a rising {@code numRestarts}, a changed
 * parallelism, or a records, idle or back-pressured counter going down; never as busy time going
 * down, which Flink derives and which falls under back-pressure.
 */
public final class WindowBuilder {
  private static final Counter[] REQUIRED_FOR_ALL = {Counter.RECORDS_OUT};
  private static final Counter[] REQUIRED_FOR_OPERATORS = {
    Counter.RECORDS_IN, Counter.RECORDS_OUT, Counter.BUSY_TIME_MS
  };

  private static final double LENGTH_TOLERANCE = 0.02;

  private final Duration minLength;
  private final Duration warmUp;

  /**
   * @param minLength the shortest window to accept
   * @param warmUp how long after the job (re)started metrics are ignored
   */
  public WindowBuilder(Duration minLength, Duration warmUp) {
    this.minLength = minLength;
    this.warmUp = warmUp;
  }

  public WindowResult build(JobGraph graph, List<JobSample> samples) {
    if (samples.isEmpty()) {
      return notReady(WindowProblem.TOO_FEW_SAMPLES, "no samples yet");
    }
    JobSample first = samples.get(0);
    for (JobSample s : samples) {
      Optional<WindowResult> problem = checkConsistent(graph, first, s);
      if (problem.isPresent()) {
        return problem.get();
      }
    }
    // Every sample, not just the window's ends: a missing or NaN metric is reported at once,
    // even while the store has not refreshed enough for a window to form.
    for (JobSample s : samples) {
      for (Vertex v : graph.topologicalOrder()) {
        WindowResult.NotReady missing =
            checkRequired(v, graph.isSource(v.id()) ? REQUIRED_FOR_ALL : REQUIRED_FOR_OPERATORS, s);
        if (missing != null) {
          return missing;
        }
      }
    }
    Instant settled = first.runningSince().plus(warmUp);
    List<JobSample> points =
        changePoints(samples).stream().filter(p -> !p.time().isBefore(settled)).toList();
    if (points.size() < 2) {
      return first.time().isBefore(settled)
          ? notReady(
              WindowProblem.WARMING_UP,
              "job (re)started at " + first.runningSince() + "; warming up for " + warmUp)
          : notReady(WindowProblem.TOO_FEW_SAMPLES, "waiting for Flink to refresh its metrics");
    }
    WindowResult whole = cut(graph, points);
    // Flink's task time times every reading exactly, even one that sat in the metric store long
    // before the first poll. Poll time does not: there the first change point's time is unknown,
    // so the window starts at the next one when there is one to spare.
    if (whole instanceof WindowResult.Ready r && timedByPolls(r.window()) && points.size() >= 3) {
      return cut(graph, points.subList(1, points.size()));
    }
    return whole;
  }

  private WindowResult cut(JobGraph graph, List<JobSample> points) {
    Map<String, VertexObservation> observations =
        new LinkedHashMap<>(2 * graph.topologicalOrder().size());
    double shortest = Double.MAX_VALUE;
    WindowResult.NotReady waitFor = null;
    for (Vertex v : graph.topologicalOrder()) {
      VertexWindow.Outcome o = VertexWindow.observe(v, points);
      if (o instanceof VertexWindow.Refused refused) {
        // A restart anywhere drops the samples at once; a vertex not refreshed yet only waits.
        if (refused.why().problem().invalidatesSamples()) {
          return refused.why();
        }
        waitFor = waitFor == null ? refused.why() : waitFor;
        continue;
      }
      VertexObservation obs = ((VertexWindow.Observed) o).observation();
      observations.put(v.id(), obs);
      shortest = Math.min(shortest, obs.seconds());
    }
    if (waitFor != null) {
      return waitFor;
    }
    // Polls jitter by milliseconds: three 10 s polls may span 29.98 s. A window that short of
    // the wanted length by less than the tolerance is as good, and waiting a whole poll for the
    // missing milliseconds would waste a tenth of a 10 s recording's windows.
    double tolerance = Math.min(LENGTH_TOLERANCE * minLength.toMillis(), 1000);
    if (shortest * 1000 < minLength.toMillis() - tolerance) {
      return notReady(
          WindowProblem.TOO_SHORT,
          String.format(
              java.util.Locale.ROOT, "window has %.1f s of %d s", shortest, minLength.toSeconds()));
    }
    JobSample start = points.get(0);
    JobSample end = points.get(points.size() - 1);
    return new WindowResult.Ready(new ObservationWindow(start.time(), end.time(), observations));
  }

  private static boolean timedByPolls(ObservationWindow w) {
    return w.vertices().values().stream().anyMatch(o -> o.timeBase() == TimeBase.POLL_TIME);
  }

  private static Optional<WindowResult> checkConsistent(
      JobGraph graph, JobSample first, JobSample s) {
    if (!"RUNNING".equals(s.jobState())) {
      return Optional.of(
          notReady(WindowProblem.JOB_NOT_RUNNING, "job was " + s.jobState() + " at " + s.time()));
    }
    boolean restarted =
        !s.runningSince().equals(first.runningSince())
            || (s.restarts().isPresent()
                && first.restarts().isPresent()
                && s.restarts().getAsLong() != first.restarts().getAsLong());
    if (restarted) {
      return Optional.of(notReady(WindowProblem.RESTARTED, "job restarted at " + s.runningSince()));
    }
    for (Vertex v : graph.topologicalOrder()) {
      Optional<VertexSample> vs = s.vertex(v.id());
      Optional<VertexSample> v0 = first.vertex(v.id());
      if (vs.isEmpty() || v0.isEmpty()) {
        return Optional.of(
            notReady(
                WindowProblem.PARTIAL_METRICS,
                "no metrics for vertex " + v.name() + " at " + s.time()));
      }
      if (!"RUNNING".equals(vs.get().status())) {
        return Optional.of(
            notReady(
                WindowProblem.JOB_NOT_RUNNING,
                "vertex " + v.name() + " was " + vs.get().status() + " at " + s.time()));
      }
      if (vs.get().parallelism() != v0.get().parallelism()) {
        return Optional.of(
            notReady(
                WindowProblem.RESTARTED,
                "vertex " + v.name() + " changed parallelism at " + s.time()));
      }
      if (vs.get().subtasks().size() != vs.get().parallelism()) {
        return Optional.of(
            notReady(
                WindowProblem.PARTIAL_METRICS,
                "vertex "
                    + v.name()
                    + " reported "
                    + vs.get().subtasks().size()
                    + " of "
                    + vs.get().parallelism()
                    + " subtasks at "
                    + s.time()));
      }
    }
    return Optional.empty();
  }

  private static WindowResult.NotReady checkRequired(Vertex v, Counter[] required, JobSample s) {
    for (SubtaskSample st : s.vertices().get(v.id()).subtasks()) {
      for (Counter c : required) {
        if (!st.has(c)) {
          return notReady(
              WindowProblem.METRIC_MISSING,
              c.flinkName()
                  + " of vertex "
                  + v.name()
                  + " subtask "
                  + st.subtask()
                  + " is missing or NaN at "
                  + s.time());
        }
      }
    }
    return null;
  }

  /** The first sample of every run of identical metric values. */
  static List<JobSample> changePoints(List<JobSample> samples) {
    List<JobSample> points = new ArrayList<>();
    for (JobSample s : samples) {
      if (points.isEmpty() || !points.get(points.size() - 1).vertices().equals(s.vertices())) {
        points.add(s);
      }
    }
    return points;
  }

  private static WindowResult.NotReady notReady(WindowProblem problem, String detail) {
    return new WindowResult.NotReady(problem, detail);
  }
}
