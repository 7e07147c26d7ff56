package io.ds2.core;

import io.ds2.core.estimate.DemandEstimator;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.RateModel;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.split.SplitOwnership;
import io.ds2.core.window.Backlog;
import io.ds2.core.window.ObservationWindow;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexObservation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/** Builds observations for tests: totals spread evenly over subtasks. */
public final class Observations {
  private final double seconds;
  private final Map<String, VertexObservation> vertices = new LinkedHashMap<>();

  public Observations(double seconds) {
    this.seconds = seconds;
  }

  public Observations operator(String id, int p, double in, double out, double busyMs) {
    vertices.put(id, vertex(id, p, in, out, busyMs, 0, Optional.empty()));
    return this;
  }

  public Observations source(String id, int p, double out) {
    vertices.put(id, vertex(id, p, 0, out, 0, 0, Optional.empty()));
    return this;
  }

  public Observations source(String id, int p, double out, double bpMs, Optional<Backlog> b) {
    vertices.put(id, vertex(id, p, 0, out, 0, bpMs, b));
    return this;
  }

  /** A source that counts its reads (a FLIP-27 source), busy {@code busyMs} over its subtasks. */
  public Observations readingSource(
      String id, int p, double read, double busyMs, Optional<Backlog> b) {
    return readingSource(id, p, read, busyMs, 0, b);
  }

  /** As above, held back (blocked on output) {@code bpMs} over its subtasks. */
  public Observations readingSource(
      String id, int p, double read, double busyMs, double bpMs, Optional<Backlog> b) {
    vertices.put(id, vertex(id, p, read, read, busyMs, bpMs, b));
    return this;
  }

  /** An operator with explicit per-subtask deltas (skew); aggregates are their sums. */
  public Observations operator(String id, List<SubtaskSample> subtasks) {
    return source(id, subtasks, Optional.empty());
  }

  /**
   * A source with explicit per-subtask deltas (records read in, the chain's output out) and the
   * splits each subtask reads, if its metrics name them.
   */
  public Observations source(
      String id, List<SubtaskSample> subtasks, Optional<SplitOwnership> splits) {
    double in = 0;
    double out = 0;
    double busy = 0;
    double idle = 0;
    double bp = 0;
    for (SubtaskSample s : subtasks) {
      in += s.recordsIn().orElse(0);
      out += s.recordsOut().orElse(0);
      busy += s.busyTimeMs().orElse(0);
      idle += s.idleTimeMs().orElse(0);
      bp += s.backPressuredTimeMs().orElse(0);
    }
    vertices.put(
        id,
        new VertexObservation(
            id,
            subtasks.size(),
            seconds,
            io.ds2.core.window.TimeBase.TASK_TIME,
            in,
            out,
            OptionalDouble.of(busy),
            OptionalDouble.of(idle),
            OptionalDouble.of(bp),
            subtasks,
            Optional.empty(),
            splits,
            Optional.empty()));
    return this;
  }

  /** The vertex {@code id} as observed, with how old its records grew. */
  public Observations aged(String id, io.ds2.core.window.RecordAge age) {
    vertices.put(id, vertices.get(id).withRecordAge(Optional.of(age)));
    return this;
  }

  public VertexObservation get(String id) {
    return vertices.get(id);
  }

  /** The DS2 estimate of this window, {@code source} stated to receive {@code rate} records/s. */
  public Estimate estimate(JobGraph graph, String source, double rate, Ds2Options options) {
    return RateModel.estimate(
        graph, window(), Map.of(source, DemandEstimator.explicit(get(source), rate)), options);
  }

  public ObservationWindow window() {
    Instant start = Instant.parse("2026-01-01T00:00:00Z");
    return new ObservationWindow(
        start, start.plusMillis((long) (seconds * 1000)), new LinkedHashMap<>(vertices));
  }

  private VertexObservation vertex(
      String id, int p, double in, double out, double busyMs, double bpMs, Optional<Backlog> b) {
    List<SubtaskSample> subtasks = new ArrayList<>();
    double wallMs = seconds * 1000;
    for (int i = 0; i < p; i++) {
      subtasks.add(
          SubtaskSample.of(i, in / p, out / p, busyMs / p, wallMs - (busyMs + bpMs) / p, bpMs / p));
    }
    return new VertexObservation(
        id,
        p,
        seconds,
        io.ds2.core.window.TimeBase.TASK_TIME,
        in,
        out,
        OptionalDouble.of(busyMs),
        OptionalDouble.of(p * wallMs - busyMs - bpMs),
        OptionalDouble.of(bpMs),
        subtasks,
        b);
  }
}
