package io.ds2.core.window;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.window.SubtaskSample.Counter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
  // Masks of the counters every subtask must report (bit c.ordinal() for counter c).
  private static final int REQUIRED_FOR_ALL = 1 << Counter.RECORDS_OUT.ordinal();
  private static final int REQUIRED_FOR_OPERATORS =
      1 << Counter.RECORDS_IN.ordinal()
          | 1 << Counter.RECORDS_OUT.ordinal()
          | 1 << Counter.BUSY_TIME_MS.ordinal();

  private static final double LENGTH_TOLERANCE = 0.02;

  private final Duration minLength;
  private final Duration warmUp;
  private final CatchUpWait catchUp;

  /**
   * @param minLength the shortest window to accept
   * @param warmUp how long after the job (re)started metrics are ignored
   */
  public WindowBuilder(Duration minLength, Duration warmUp) {
    this(minLength, warmUp, Duration.ZERO);
  }

  /**
   * @param maxCatchUp how long after a restart behind its sources' heads the run's windows wait at
   *     most for them to catch up ({@link CatchUpWait})
   */
  public WindowBuilder(Duration minLength, Duration warmUp, Duration maxCatchUp) {
    this.minLength = minLength;
    this.warmUp = warmUp;
    this.catchUp = maxCatchUp.isZero() ? CatchUpWait.NONE : new CatchUpWait(maxCatchUp);
  }

  public WindowResult build(JobGraph graph, List<JobSample> samples) {
    return build(graph, List.of(), samples);
  }

  /**
   * As {@link #build(JobGraph, List)}, with the polls of earlier windows: those of the same run
   * (same start, no restart since) lengthen the fit of each source's arrival rate while it agrees
   * with the window's ({@link SourceBacklog}); nothing else is taken from them.
   *
   * @param leadIn polls from before {@code samples}, first to last; any of another run are ignored
   */
  public WindowResult build(JobGraph graph, List<JobSample> leadIn, List<JobSample> samples) {
    if (samples.isEmpty()) {
      return notReady(WindowProblem.TOO_FEW_SAMPLES, "no samples yet");
    }
    JobSample first = samples.get(0);
    List<Vertex> order = graph.topologicalOrder();
    // Every sample's values of every vertex, by topological position, looked up once: at 1,000
    // vertices, each check looking them up by id again was a sixth of the window's time.
    VertexSample[][] values = new VertexSample[samples.size()][];
    for (int k = 0; k < samples.size(); k++) {
      values[k] = inOrder(order, samples.get(k));
    }
    for (int k = 0; k < samples.size(); k++) {
      WindowResult.NotReady problem =
          checkConsistent(order, first, values[0], samples.get(k), values[k]);
      if (problem != null) {
        return problem;
      }
    }
    // Every sample, not just the window's ends: a missing or NaN metric is reported at once,
    // even while the store has not refreshed enough for a window to form.
    for (int k = 0; k < samples.size(); k++) {
      for (int pos = 0; pos < order.size(); pos++) {
        WindowResult.NotReady missing =
            checkRequired(
                order.get(pos),
                graph.isSourceAt(pos) ? REQUIRED_FOR_ALL : REQUIRED_FOR_OPERATORS,
                samples.get(k),
                values[k][pos]);
        if (missing != null) {
          return missing;
        }
      }
    }
    Instant warmedUp = first.runningSince().plus(warmUp);
    LeadIn lead = leadIn(graph, first, leadIn, warmedUp);
    CatchUpWait.Start start = catchUp.start(graph, lead.latestFirst(), samples, warmedUp);
    if (start.catchingUp()) {
      return notReady(WindowProblem.CATCHING_UP, start.detail());
    }
    Instant settled = start.from();
    if (settled.isAfter(warmedUp)) {
      lead = leadIn(graph, first, leadIn, settled);
    }
    List<Integer> points = new ArrayList<>();
    for (int k : changePoints(samples)) {
      if (!samples.get(k).time().isBefore(settled)) {
        points.add(k);
      }
    }
    if (points.size() < 2) {
      return first.time().isBefore(settled)
          ? notReady(
              WindowProblem.WARMING_UP,
              "job (re)started at " + first.runningSince() + "; warming up for " + warmUp)
          : notReady(WindowProblem.TOO_FEW_SAMPLES, "waiting for Flink to refresh its metrics");
    }
    WindowResult whole = cut(graph, samples, values, points, lead);
    // Flink's task time times every reading exactly, even one that sat in the metric store long
    // before the first poll. Poll time does not: there the first change point's time is unknown,
    // so the window starts at the next one when there is one to spare.
    if (whole instanceof WindowResult.Ready r && timedByPolls(r.window()) && points.size() >= 3) {
      return cut(graph, samples, values, points.subList(1, points.size()), lead);
    }
    return whole;
  }

  /**
   * Earlier polls of the window's run, past the warm-up, with their values by position; and every
   * earlier poll of the run, warm-up included, latest first (for the age of a source's gauge).
   */
  private record LeadIn(JobSample[] polls, VertexSample[][] values, List<JobSample> latestFirst) {}

  private static LeadIn leadIn(
      JobGraph graph, JobSample first, List<JobSample> leadIn, Instant settled) {
    List<JobSample> same = new ArrayList<>();
    List<JobSample> latestFirst = new ArrayList<>();
    for (JobSample s : leadIn) {
      boolean sameRun =
          "RUNNING".equals(s.jobState())
              && s.runningSince().equals(first.runningSince())
              && s.restarts().equals(first.restarts())
              && s.time().isBefore(first.time());
      if (sameRun) {
        latestFirst.add(s);
        if (!s.time().isBefore(settled)) {
          same.add(s);
        }
      }
    }
    Collections.reverse(latestFirst);
    if (same.isEmpty()) {
      return new LeadIn(new JobSample[0], new VertexSample[0][], latestFirst);
    }
    // Only sources' values are used: the others are not looked up (a lead-in has dozens of polls).
    List<Vertex> order = graph.topologicalOrder();
    JobSample[] polls = same.toArray(JobSample[]::new);
    VertexSample[][] values = new VertexSample[polls.length][order.size()];
    for (int k = 0; k < polls.length; k++) {
      for (int pos = 0; pos < order.size(); pos++) {
        if (graph.isSourceAt(pos)) {
          values[k][pos] = polls[k].vertices().get(order.get(pos).id());
        }
      }
    }
    return new LeadIn(polls, values, latestFirst);
  }

  /**
   * The sample's values of each vertex in {@code order} (null where it has none). Samples are
   * mostly taken in the graph's order, so each entry is checked against the next one before falling
   * back to a lookup by id.
   */
  private static VertexSample[] inOrder(List<Vertex> order, JobSample s) {
    VertexSample[] values = new VertexSample[order.size()];
    Iterator<VertexSample> next = s.vertices().values().iterator();
    for (int pos = 0; pos < values.length; pos++) {
      String id = order.get(pos).id();
      VertexSample v = next.hasNext() ? next.next() : null;
      values[pos] = v != null && v.vertexId().equals(id) ? v : s.vertices().get(id);
    }
    return values;
  }

  private WindowResult cut(
      JobGraph graph,
      List<JobSample> samples,
      VertexSample[][] values,
      List<Integer> at,
      LeadIn lead) {
    List<Vertex> order = graph.topologicalOrder();
    JobSample[] points = new JobSample[at.size()];
    VertexSample[][] pointValues = new VertexSample[at.size()][];
    for (int k = 0; k < points.length; k++) {
      points[k] = samples.get(at.get(k));
      pointValues[k] = values[at.get(k)];
    }
    VertexWindow.Readings scratch = new VertexWindow.Readings(points.length);
    VertexWindow.Readings leadScratch = new VertexWindow.Readings(lead.polls().length);
    Map<String, VertexObservation> observations = new LinkedHashMap<>(2 * order.size());
    double shortest = Double.MAX_VALUE;
    WindowResult.NotReady waitFor = null;
    for (int pos = 0; pos < order.size(); pos++) {
      Vertex v = order.get(pos);
      VertexWindow.Readings leadIn = leadScratch;
      leadIn.clear();
      if (graph.isSourceAt(pos) && lead.polls().length > 0 && hasAll(lead.values(), pos)) {
        VertexWindow.freshReadings(pos, lead.polls(), lead.values(), leadIn);
      }
      GaugeAge age =
          graph.isSourceAt(pos)
              ? GaugeAge.at(samples, values, at.get(0), pos, lead.latestFirst(), leadIn)
              : null;
      VertexWindow.Outcome o =
          VertexWindow.observe(v, pos, points, pointValues, scratch, leadIn, age);
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
    JobSample start = points[0];
    JobSample end = points[points.length - 1];
    SourceAge.attach(graph, observations, lead.latestFirst(), samples, values, at);
    return new WindowResult.Ready(ObservationWindow.owning(start.time(), end.time(), observations));
  }

  private static boolean hasAll(VertexSample[][] values, int pos) {
    for (VertexSample[] v : values) {
      if (v[pos] == null) {
        return false;
      }
    }
    return true;
  }

  private static boolean timedByPolls(ObservationWindow w) {
    for (VertexObservation o : w.vertices().values()) {
      if (o.timeBase() == TimeBase.POLL_TIME) {
        return true;
      }
    }
    return false;
  }

  private static WindowResult.NotReady checkConsistent(
      List<Vertex> order,
      JobSample first,
      VertexSample[] firstValues,
      JobSample s,
      VertexSample[] values) {
    if (!"RUNNING".equals(s.jobState())) {
      return notReady(WindowProblem.JOB_NOT_RUNNING, "job was " + s.jobState() + " at " + s.time());
    }
    boolean restarted =
        !s.runningSince().equals(first.runningSince())
            || (s.restarts().isPresent()
                && first.restarts().isPresent()
                && s.restarts().getAsLong() != first.restarts().getAsLong());
    if (restarted) {
      return notReady(WindowProblem.RESTARTED, "job restarted at " + s.runningSince());
    }
    for (int pos = 0; pos < order.size(); pos++) {
      Vertex v = order.get(pos);
      VertexSample vs = values[pos];
      VertexSample v0 = firstValues[pos];
      if (vs == null || v0 == null) {
        return notReady(
            WindowProblem.PARTIAL_METRICS, "no metrics for vertex " + v.name() + " at " + s.time());
      }
      if (!"RUNNING".equals(vs.status())) {
        return notReady(
            WindowProblem.JOB_NOT_RUNNING,
            "vertex " + v.name() + " was " + vs.status() + " at " + s.time());
      }
      if (vs.parallelism() != v0.parallelism()) {
        return notReady(
            WindowProblem.RESTARTED, "vertex " + v.name() + " changed parallelism at " + s.time());
      }
      if (vs.subtasks().size() != vs.parallelism()) {
        return notReady(
            WindowProblem.PARTIAL_METRICS,
            "vertex "
                + v.name()
                + " reported "
                + vs.subtasks().size()
                + " of "
                + vs.parallelism()
                + " subtasks at "
                + s.time());
      }
    }
    return null;
  }

  private static WindowResult.NotReady checkRequired(
      Vertex v, int required, JobSample s, VertexSample values) {
    List<SubtaskSample> subtasks = values.subtasks();
    for (int i = 0; i < subtasks.size(); i++) {
      SubtaskSample st = subtasks.get(i);
      if ((st.presentMask() & required) == required) {
        continue;
      }
      for (Counter c : Counter.values()) {
        if ((required & 1 << c.ordinal()) != 0 && !st.has(c)) {
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

  /** The index of the first sample of every run of identical metric values. */
  static List<Integer> changePoints(List<JobSample> samples) {
    List<Integer> points = new ArrayList<>();
    for (int k = 0; k < samples.size(); k++) {
      if (points.isEmpty()
          || !samples
              .get(points.get(points.size() - 1))
              .vertices()
              .equals(samples.get(k).vertices())) {
        points.add(k);
      }
    }
    return points;
  }

  private static WindowResult.NotReady notReady(WindowProblem problem, String detail) {
    return new WindowResult.NotReady(problem, detail);
  }
}
