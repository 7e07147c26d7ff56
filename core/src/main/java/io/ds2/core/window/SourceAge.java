package io.ds2.core.window;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.window.SubtaskSample.Counter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Fits a source's {@link RecordAge} to its readings of one run.
 *
 * <p><b>Only from the heads.</b> A subtask's age is that of the record it emitted last, of one of
 * its partitions. Behind them, its consumer takes a fetched chunk (up to 1 MiB) of one partition
 * after another, so the age jumps at each chunk and falls within it: measured on Nexmark at 1,685
 * records/s over 12 partitions, a sawtooth of about 65 s over a pass of about 80 s. And a run that
 * starts behind (a restart from a checkpoint) starts every partition's first chunk from the
 * checkpoint: the age rises about a second a second for a whole pass, whatever arrives (read that
 * way, 2.2 to 4.3 times the arrival). A subtask that was at its heads — its records seconds old and
 * its backlog gauge a few seconds of reading — has no such chunk behind it: from there, its age
 * grows by {@code 1 - r/a} a second, give or take what it has fallen behind since. So each subtask
 * is fitted from the last reading of the run's first readings that found it at its heads (or from
 * its first reading, where a fresh run fell behind before the metric store first refreshed: {@link
 * #youngerThanRun}); a series that does not start at the heads (a run that started behind, or one
 * that went behind before its earliest reading kept) gives nothing. Replayed on the first runs of
 * Nexmark Q1, Q2 and Q5 (their sources held back by their jobs, the lag gauge standing), fits over
 * 30 s or more read 1,518-1,742/s for 1,685, 1,415-1,484/s for 1,467 and 1,518-1,708/s for 1,685,
 * where the gauge read 974, 1,016 and 985/s.
 */
final class SourceAge {
  /** A subtask whose last record is at most this old (and whose backlog is this much reading). */
  static final double HEADS_SECONDS = 5;

  /**
   * The most a subtask's age may grow a second: {@code a <= 2r}, the bound the blind step takes
   * ({@code DemandEstimator.HIDDEN_STEP}). A fit that says more is read as twice what was read.
   */
  static final double MAX_GROWTH = 0.5;

  /**
   * A fit needs this long since the heads: on the Nexmark replays, 20 s fits read -20 % to +14 %,
   * 30 s and longer -10 % to +3 % (at Flink's 10 s refresh, four readings).
   */
  static final double MIN_SPAN_SECONDS = 30;

  static final int MIN_POINTS = 3;

  /**
   * How soon after its run's start a reading can show the run started at its heads: Flink's first
   * metric refreshes (10 s apart by default). Later, records younger than the run say nothing of
   * its start: a run restored behind reads them once it has drained part of its backlog (the
   * headline's Orders source, 3 instances draining, emitted 49-72 s old records 151 s into its run,
   * and a fit from there read 470/s for 400).
   */
  static final double FIRST_READING_SECONDS = 20;

  private SourceAge() {}

  /**
   * Gives each source of a window made its records' age ({@link #ofRun}): once a window, not at
   * each poll that tries to make one.
   */
  static void attach(
      JobGraph graph,
      Map<String, VertexObservation> observations,
      List<JobSample> earlierLatestFirst,
      List<JobSample> samples,
      VertexSample[][] values,
      List<Integer> points) {
    List<Vertex> order = graph.topologicalOrder();
    for (int pos = 0; pos < order.size(); pos++) {
      VertexObservation o = observations.get(order.get(pos).id());
      if (graph.isSourceAt(pos) && o != null) {
        Optional<RecordAge> age = ofRun(earlierLatestFirst, samples, values, pos, points);
        observations.put(o.vertexId(), o.withRecordAge(age));
      }
    }
  }

  /**
   * The age over the run's readings of the source at {@code pos} up to the window's end: its
   * earlier polls (warm-up included: a run's first readings are what find it at its heads), then
   * the window's samples.
   *
   * @param earlierLatestFirst the run's polls before {@code samples}, latest first
   * @param points the window's points, indices into {@code samples}: the last is the last taken
   */
  static Optional<RecordAge> ofRun(
      List<JobSample> earlierLatestFirst,
      List<JobSample> samples,
      VertexSample[][] values,
      int pos,
      List<Integer> points) {
    int upTo = points.get(points.size() - 1);
    VertexSample end = values[upTo][pos];
    if (end == null || end.emitLagMs().stream().allMatch(OptionalDouble::isEmpty)) {
      return Optional.empty();
    }
    List<VertexSample> series = new ArrayList<>();
    List<Instant> at = new ArrayList<>();
    Instant from = samples.get(0).time();
    for (int k = earlierLatestFirst.size() - 1; k >= 0; k--) {
      JobSample s = earlierLatestFirst.get(k);
      if (s.time().isBefore(from)) {
        add(series, at, s.vertices().get(end.vertexId()), s.time());
      }
    }
    for (int k = 0; k <= upTo; k++) {
      add(series, at, values[k][pos], samples.get(k).time());
    }
    if (series.size() < MIN_POINTS) {
      return Optional.empty();
    }
    // Timed by the task's own clock where it can be, as the backlog's fit is (TaskClock).
    double[] seconds = new double[series.size()];
    double[] scratch = new double[end.subtasks().size()];
    VertexSample first = series.get(0);
    for (int k = 1; k < seconds.length; k++) {
      double poll = (at.get(k).toEpochMilli() - at.get(0).toEpochMilli()) / 1000.0;
      seconds[k] = TaskClock.between(first, series.get(k), poll, scratch).seconds();
    }
    // How long the run had been running at its first reading: records no older than that are
    // from its start.
    double runAge = Duration.between(samples.get(0).runningSince(), at.get(0)).toMillis() / 1000.0;
    return fit(series, seconds, runAge);
  }

  /** Adds a new reading of every subtask's age (none before the gauge is registered). */
  private static void add(List<VertexSample> series, List<Instant> at, VertexSample v, Instant t) {
    boolean reported =
        v != null
            && v.emitLagMs().size() == v.subtasks().size()
            && v.emitLagMs().stream().allMatch(OptionalDouble::isPresent);
    if (reported && (series.isEmpty() || !series.get(series.size() - 1).equals(v))) {
      series.add(v);
      at.add(t);
    }
  }

  /**
   * @param values the source's distinct readings of one run, first to last
   * @param seconds each reading's time, from the first
   * @return empty where a subtask's age is not reported, the series does not start at the heads, a
   *     subtask behind them has too short a fit, or every subtask is at its heads
   */
  static Optional<RecordAge> fit(List<VertexSample> values, double[] seconds, double runAge) {
    int n = values.size();
    if (n < MIN_POINTS) {
      return Optional.empty();
    }
    VertexSample first = values.get(0);
    VertexSample last = values.get(n - 1);
    int p = last.subtasks().size();
    double span = seconds[n - 1] - seconds[0];
    Counter read = SourceBacklog.readCounter(first, last);
    OptionalDouble done0 = VertexWindow.sumOf(first.subtasks(), read);
    OptionalDouble done1 = VertexWindow.sumOf(last.subtasks(), read);
    if (span <= 0 || done0.isEmpty() || done1.isEmpty() || !sameShape(values, p)) {
      return Optional.empty();
    }
    double vertexRate = (done1.getAsDouble() - done0.getAsDouble()) / span;
    double arrival = 0;
    double readRate = 0;
    double growth = 0;
    double since = 0;
    boolean capped = false;
    boolean behind = false;
    double[] lag = new double[n];
    for (int i = 0; i < p; i++) {
      int k0 = -1;
      while (k0 + 1 < n && atHeads(values.get(k0 + 1), i, vertexRate)) {
        k0++;
      }
      if (k0 < 0 && youngerThanRun(first, i, vertexRate, runAge)) {
        k0 = 0; // a run that started at its heads, already fallen behind at its first reading
      }
      if (k0 < 0) {
        return Optional.empty(); // not at its heads when the series starts
      }
      if (atHeads(last, i, vertexRate)) {
        double r = rate(values, seconds, i, read, 0);
        arrival += r;
        readRate += r;
        continue;
      }
      double fitted = seconds[n - 1] - seconds[k0];
      if (fitted < MIN_SPAN_SECONDS || n - k0 < MIN_POINTS) {
        return Optional.empty();
      }
      for (int k = k0; k < n; k++) {
        OptionalDouble ms = values.get(k).emitLagMs().get(i);
        if (ms.isEmpty()) {
          return Optional.empty();
        }
        lag[k] = ms.getAsDouble() / 1000;
      }
      double g = Math.max(0, theilSen(seconds, lag, k0, n));
      capped |= g > MAX_GROWTH;
      g = Math.min(g, MAX_GROWTH);
      double r = rate(values, seconds, i, read, k0);
      arrival += r / (1 - g);
      readRate += r;
      growth = Math.max(growth, g);
      since = Math.max(since, fitted);
      behind = true;
    }
    return behind
        ? Optional.of(new RecordAge(arrival, readRate, growth, since, capped))
        : Optional.empty();
  }

  private static boolean atHeads(VertexSample v, int i, double vertexRate) {
    OptionalDouble lagMs = v.emitLagMs().get(i);
    if (lagMs.isEmpty() || lagMs.getAsDouble() > HEADS_SECONDS * 1000) {
      return false;
    }
    // Where the backlog is reported, it must be a few seconds' reading too: a subtask reading a
    // caught-up partition's chunk while others are still behind shows young records, not its
    // heads.
    return v.pendingRecords().isEmpty()
        || v.pendingRecords().getAsDouble() <= HEADS_SECONDS * Math.max(0, vertexRate);
  }

  /**
   * Whether subtask {@code i}'s first reading, {@code runAge} seconds into its run (at most {@link
   * #FIRST_READING_SECONDS}: one of the run's first), shows records no older than the run, with no
   * more waiting than it would read meanwhile: the run started at its heads (a run that starts
   * behind — restored from a checkpoint — emits records older than itself), and what it fell behind
   * since is less than a chunk of each partition, so its age grows as from the heads. At Flink's 10
   * s metric refresh, a source reading 148/s of 400/s was 7.3 s behind at its first reading;
   * restored runs read 10.4-104 s old records 0.1-10.5 s in.
   */
  private static boolean youngerThanRun(VertexSample v, int i, double vertexRate, double runAge) {
    OptionalDouble lagMs = v.emitLagMs().get(i);
    double window = Math.max(HEADS_SECONDS, runAge);
    return runAge <= FIRST_READING_SECONDS
        && lagMs.isPresent()
        && lagMs.getAsDouble() <= runAge * 1000
        && (v.pendingRecords().isEmpty()
            || v.pendingRecords().getAsDouble() <= window * Math.max(0, vertexRate));
  }

  private static double rate(
      List<VertexSample> values, double[] seconds, int i, Counter read, int from) {
    int n = values.size();
    OptionalDouble a = values.get(from).subtasks().get(i).get(read);
    OptionalDouble b = values.get(n - 1).subtasks().get(i).get(read);
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    return Math.max(0, b.getAsDouble() - a.getAsDouble()) / (seconds[n - 1] - seconds[from]);
  }

  /**
   * The median of the slopes between every two readings: one chunk's jump or a reading a refresh
   * late moves it far less than it moves a least-squares line.
   */
  static double theilSen(double[] x, double[] y, int from, int to) {
    int m = to - from;
    double[] slopes = new double[m * (m - 1) / 2];
    int s = 0;
    for (int j = from; j < to; j++) {
      for (int k = j + 1; k < to; k++) {
        if (x[k] > x[j]) {
          slopes[s++] = (y[k] - y[j]) / (x[k] - x[j]);
        }
      }
    }
    if (s == 0) {
      return 0;
    }
    Arrays.sort(slopes, 0, s);
    return s % 2 == 1 ? slopes[s / 2] : (slopes[s / 2 - 1] + slopes[s / 2]) / 2;
  }

  private static boolean sameShape(List<VertexSample> values, int p) {
    for (VertexSample v : values) {
      if (v.subtasks().size() != p || v.emitLagMs().size() != p) {
        return false;
      }
    }
    return true;
  }
}
