package io.ds2.experiments.replay;

import com.fasterxml.jackson.databind.json.JsonMapper;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import io.ds2.recording.Recorded;
import io.ds2.recording.RecordingFormat;
import io.ds2.recording.RecordingWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A synthetic recording of a wide job, written with the production writer: two sources feeding two
 * chains of operators that join into one, {@code vertices} in all, parallelism 1 to 4, a diurnal
 * demand (+-50 % over 24 h), every counter per subtask as Flink would report it.
 */
public final class SyntheticRecording {
  static final Instant START = Instant.parse("2026-11-01T00:00:00Z");
  private static final double BASE_RATE = 2_000; // records/s per source at the daily mean

  private SyntheticRecording() {}

  /** The job: sources s0, s1; chains a1..ak and b1..bk; j (join) and then the rest in a line. */
  static JobTopology topology(int vertices) {
    if (vertices < 6) {
      throw new IllegalArgumentException("at least 6 vertices, was " + vertices);
    }
    List<Vertex> v = new ArrayList<>();
    List<Edge> e = new ArrayList<>();
    v.add(new Vertex("s0", "Source: Clicks", 128));
    v.add(new Vertex("s1", "Source: Views", 128));
    int chain = (vertices - 3) / 3;
    String lastA = "s0";
    String lastB = "s1";
    for (int i = 1; i <= chain; i++) {
      v.add(new Vertex("a" + i, "Enrich A" + i, 128));
      v.add(new Vertex("b" + i, "Enrich B" + i, 128));
      e.add(new Edge(lastA, "a" + i, "FORWARD"));
      e.add(new Edge(lastB, "b" + i, "REBALANCE"));
      lastA = "a" + i;
      lastB = "b" + i;
    }
    v.add(new Vertex("j", "Join", 128));
    e.add(new Edge(lastA, "j", "HASH"));
    e.add(new Edge(lastB, "j", "HASH"));
    String last = "j";
    for (int i = 1; v.size() < vertices; i++) {
      v.add(new Vertex("t" + i, "Stage " + i, 128));
      e.add(new Edge(last, "t" + i, "REBALANCE"));
      last = "t" + i;
    }
    return new JobTopology(
        "b1e55ed0000000000000000000000000", "synthetic-" + vertices, JobGraph.of(v, e));
  }

  /** Writes {@code length} of samples every {@code interval}; returns the samples written. */
  static long write(Path file, int vertices, Duration length, Duration interval)
      throws IOException {
    JobTopology topology = topology(vertices);
    List<Vertex> order = topology.graph().topologicalOrder();
    Map<String, Integer> parallelism = new LinkedHashMap<>();
    Map<String, Double> cost = new LinkedHashMap<>(); // busy seconds per record
    for (int i = 0; i < order.size(); i++) {
      parallelism.put(order.get(i).id(), 1 + i % 4);
      cost.put(order.get(i).id(), 0.0002 * (1 + i % 5));
    }
    Map<String, double[][]> counters = new LinkedHashMap<>(); // per subtask: in, out, busy, idle
    order.forEach(v -> counters.put(v.id(), new double[parallelism.get(v.id())][4]));
    long samples = 0;
    try (RecordingWriter w = RecordingWriter.create(file)) {
      w.write(
          new Recorded.Header(
              RecordingFormat.VERSION,
              START,
              "synthetic",
              topology.jobId(),
              topology.jobName(),
              Optional.of("1.20.3"),
              interval,
              Optional.empty(),
              JsonMapper.builder()
                  .build()
                  .createObjectNode()
                  .put("generator", "SyntheticRecording")));
      w.write(new Recorded.Topology(START, topology, parallelism));
      double dt = interval.toMillis() / 1000.0;
      for (Duration t = Duration.ZERO; t.compareTo(length) <= 0; t = t.plus(interval)) {
        double demand = BASE_RATE * (1 + 0.5 * Math.sin(2 * Math.PI * t.toSeconds() / 86_400.0));
        Map<String, Double> out = new LinkedHashMap<>();
        Map<String, VertexSample> vs = new LinkedHashMap<>();
        for (Vertex v : order) {
          boolean source = topology.graph().isSource(v.id());
          double in =
              source
                  ? 0
                  : topology.graph().inputsOf(v.id()).stream()
                      .mapToDouble(x -> out.get(x.from()))
                      .sum();
          double emitted = source ? demand : in;
          out.put(v.id(), emitted);
          double[][] c = counters.get(v.id());
          List<SubtaskSample> subtasks = new ArrayList<>();
          for (int i = 0; i < c.length; i++) {
            if (!t.isZero()) {
              double share = dt / c.length;
              double busy = Math.min(dt, (source ? emitted : in) * share * cost.get(v.id()));
              c[i][0] += in * share;
              c[i][1] += emitted * share;
              c[i][2] += busy * 1000;
              c[i][3] += (dt - busy) * 1000;
            }
            subtasks.add(SubtaskSample.of(i, c[i][0], c[i][1], c[i][2], c[i][3], 0));
          }
          vs.put(
              v.id(),
              new VertexSample(
                  v.id(),
                  "RUNNING",
                  c.length,
                  subtasks,
                  source ? OptionalDouble.of(0) : OptionalDouble.empty()));
        }
        w.write(
            new Recorded.Sample(
                new JobSample(
                    START.plus(t), "RUNNING", START.minusSeconds(600), OptionalLong.of(0), vs)));
        samples++;
      }
    }
    return samples;
  }
}
