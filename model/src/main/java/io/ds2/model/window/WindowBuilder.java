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
import java.util.OptionalDouble;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Turns raw job samples into a clean observation window, or says why it cannot.
 *
 * <p>Flink's REST metric store refreshes on its own schedule ({@code metrics.fetcher
 * .update-interval}, 10 s by default) and does not say when. Repeated polls return the same values,
 * so the window is cut at <em>change points</em>: the first poll at which new values appeared.
 * Their receive times bound the refresh times to within one poll interval, instead of one fetch
 * interval.
 */
public final class WindowBuilder {
  private static final Counter[] REQUIRED_FOR_ALL = {Counter.RECORDS_OUT};
  private static final Counter[] REQUIRED_FOR_OPERATORS = {
    Counter.RECORDS_IN, Counter.RECORDS_OUT, Counter.BUSY_TIME_MS
  };

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
        WindowResult.NotReady missing = checkRequired(graph, v, s);
        if (missing != null) {
          return missing;
        }
      }
    }
    List<JobSample> points = changePoints(samples);
    // The first distinct values may have been in the store long before the first poll: their
    // time is unknown, so start at the next change point when there is one to spare.
    if (points.size() >= 3) {
      points = points.subList(1, points.size());
    }
    Instant settled = first.runningSince().plus(warmUp);
    points = points.stream().filter(p -> !p.time().isBefore(settled)).toList();
    if (points.size() < 2) {
      return first.time().isBefore(settled)
          ? notReady(
              WindowProblem.WARMING_UP,
              "job (re)started at " + first.runningSince() + "; warming up for " + warmUp)
          : notReady(WindowProblem.TOO_FEW_SAMPLES, "waiting for Flink to refresh its metrics");
    }
    JobSample start = points.get(0);
    JobSample end = points.get(points.size() - 1);
    Duration length = Duration.between(start.time(), end.time());
    if (length.compareTo(minLength) < 0) {
      return notReady(
          WindowProblem.TOO_SHORT,
          "window has " + length.toMillis() / 1000.0 + " s of " + minLength.toSeconds() + " s");
    }
    Map<String, VertexObservation> observations = new LinkedHashMap<>();
    for (Vertex v : graph.topologicalOrder()) {
      Optional<VertexObservation> obs = observe(v.id(), start, end, points);
      if (obs.isEmpty()) {
        return notReady(
            WindowProblem.COUNTER_DECREASED,
            "a counter of vertex "
                + v.name()
                + " decreased between "
                + start.time()
                + " and "
                + end.time()
                + " (job restarted?)");
      }
      observations.put(v.id(), obs.get());
    }
    return new WindowResult.Ready(new ObservationWindow(start.time(), end.time(), observations));
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

  private static WindowResult.NotReady checkRequired(JobGraph graph, Vertex v, JobSample s) {
    Counter[] required = graph.isSource(v.id()) ? REQUIRED_FOR_ALL : REQUIRED_FOR_OPERATORS;
    for (SubtaskSample st : s.vertices().get(v.id()).subtasks()) {
      for (Counter c : required) {
        if (st.get(c).isEmpty()) {
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

  private static Optional<VertexObservation> observe(
      String id, JobSample start, JobSample end, List<JobSample> points) {
    VertexSample a = start.vertices().get(id);
    VertexSample b = end.vertices().get(id);
    List<SubtaskSample> deltas = new ArrayList<>();
    for (int i = 0; i < a.subtasks().size(); i++) {
      SubtaskSample sa = a.subtasks().get(i);
      SubtaskSample sb = b.subtasks().get(i);
      OptionalDouble[] d = new OptionalDouble[Counter.values().length];
      for (Counter c : Counter.values()) {
        OptionalDouble va = sa.get(c);
        OptionalDouble vb = sb.get(c);
        if (va.isPresent() && vb.isPresent()) {
          double delta = vb.getAsDouble() - va.getAsDouble();
          if (delta < 0) {
            return Optional.empty();
          }
          d[c.ordinal()] = OptionalDouble.of(delta);
        } else {
          d[c.ordinal()] = OptionalDouble.empty();
        }
      }
      deltas.add(new SubtaskSample(sa.subtask(), d[0], d[1], d[2], d[3], d[4]));
    }
    TaskClock.Elapsed elapsed = TaskClock.between(a, b, pollSeconds(start, end));
    return Optional.of(
        new VertexObservation(
            id,
            a.parallelism(),
            elapsed.seconds(),
            elapsed.base(),
            sumOf(deltas, Counter.RECORDS_IN).orElse(0),
            sumOf(deltas, Counter.RECORDS_OUT).orElse(0),
            sumOf(deltas, Counter.BUSY_TIME_MS),
            sumOf(deltas, Counter.IDLE_TIME_MS),
            sumOf(deltas, Counter.BACK_PRESSURED_TIME_MS),
            deltas,
            backlog(id, start, points)));
  }

  private static Optional<Backlog> backlog(String id, JobSample start, List<JobSample> points) {
    // Points are change points of the whole job, so equal readings here are real readings.
    SimpleRegression pending = new SimpleRegression();
    SimpleRegression arrived = new SimpleRegression();
    List<double[]> arrivals = new ArrayList<>();
    VertexSample first = start.vertices().get(id);
    double perRead = outputPerRecordRead(first, points.get(points.size() - 1).vertices().get(id));
    Counter read = perRead == 1 ? Counter.RECORDS_OUT : Counter.RECORDS_IN;
    double last = 0;
    for (JobSample p : points) {
      VertexSample v = p.vertices().get(id);
      OptionalDouble done = sumOf(v.subtasks(), read);
      if (v.pendingRecords().isEmpty() || done.isEmpty()) {
        continue;
      }
      double t = TaskClock.between(first, v, pollSeconds(start, p)).seconds();
      last = v.pendingRecords().getAsDouble() * perRead;
      pending.addData(t, last);
      double total = last + done.getAsDouble() * perRead;
      arrived.addData(t, total);
      arrivals.add(new double[] {t, total});
    }
    if (pending.getN() < 2) {
      return Optional.empty();
    }
    double firstT = arrivals.get(0)[0];
    double lastT = arrivals.get(arrivals.size() - 1)[0];
    double middle = (firstT + lastT) / 2;
    return Optional.of(
        new Backlog(
            last,
            pending.getSlope(),
            arrived.getSlope(),
            (int) pending.getN(),
            lastT - firstT,
            slope(arrivals.stream().filter(a -> a[0] <= middle).toList()),
            slope(arrivals.stream().filter(a -> a[0] >= middle).toList())));
  }

  /**
   * {@code pendingRecords} counts records the source has not read yet. Where the source vertex
   * counts the records it reads and emits a different number (a filter or flat map chained to the
   * source), demand in the vertex's output records is the read rate times output per read record,
   * measured over the window; otherwise 1 (the output counter stands in for reads).
   */
  private static double outputPerRecordRead(VertexSample from, VertexSample to) {
    OptionalDouble in0 = sumOf(from.subtasks(), Counter.RECORDS_IN);
    OptionalDouble in1 = sumOf(to.subtasks(), Counter.RECORDS_IN);
    OptionalDouble out0 = sumOf(from.subtasks(), Counter.RECORDS_OUT);
    OptionalDouble out1 = sumOf(to.subtasks(), Counter.RECORDS_OUT);
    if (in0.isEmpty() || in1.isEmpty() || out0.isEmpty() || out1.isEmpty()) {
      return 1;
    }
    double read = in1.getAsDouble() - in0.getAsDouble();
    double emitted = out1.getAsDouble() - out0.getAsDouble();
    return read > 0 && emitted >= 0 ? emitted / read : 1;
  }

  /** Least-squares slope of (t, value) pairs, if there are enough of them to mean something. */
  private static OptionalDouble slope(List<double[]> data) {
    if (data.size() < Backlog.MIN_POINTS_PER_HALF) {
      return OptionalDouble.empty();
    }
    SimpleRegression r = new SimpleRegression();
    data.forEach(d -> r.addData(d[0], d[1]));
    return OptionalDouble.of(r.getSlope());
  }

  private static double pollSeconds(JobSample from, JobSample to) {
    return Duration.between(from.time(), to.time()).toNanos() / 1e9;
  }

  private static OptionalDouble sumOf(List<SubtaskSample> subtasks, Counter c) {
    double total = 0;
    for (SubtaskSample s : subtasks) {
      if (s.get(c).isEmpty()) {
        return OptionalDouble.empty();
      }
      total += s.get(c).getAsDouble();
    }
    return OptionalDouble.of(total);
  }

  private static WindowResult.NotReady notReady(WindowProblem problem, String detail) {
    return new WindowResult.NotReady(problem, detail);
  }
}
