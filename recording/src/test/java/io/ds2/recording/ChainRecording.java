package io.ds2.recording;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A recording of a two-vertex job written with the production writer: source {@code src} emits
 * {@code rate} records/s (no backlog), operator {@code op} (parallelism 1) processes them at {@code
 * trueRate} per busy second, one sample per second. The oracle is ceil(rate / trueRate).
 */
public final class ChainRecording {
  public static final Instant START = Instant.parse("2026-11-29T10:00:00Z");
  // Both in one slot-sharing group, its id as Flink's REST API reports one (1.19 on).
  private static final String SLOT_SHARING_GROUP = "e1af6321de61a7e980ec5bb37f4650c6";
  static final JobTopology TOPOLOGY =
      new JobTopology(
          "0123456789abcdef0123456789abcdef",
          "chain",
          JobGraph.of(
              List.of(
                  new Vertex("src", "Source: In", 128, Optional.of(SLOT_SHARING_GROUP)),
                  new Vertex("op", "Work", 128, Optional.of(SLOT_SHARING_GROUP))),
              List.of(new Edge("src", "op", "REBALANCE"))));

  private ChainRecording() {}

  public static Path write(Path file, int seconds, double rate, double trueRate)
      throws IOException {
    return write(file, seconds, rate, trueRate, Map.of());
  }

  /** As {@link #write(Path, int, double, double)}, recorded by a run with these ds2 options. */
  public static Path write(
      Path file, int seconds, double rate, double trueRate, Map<String, String> options)
      throws IOException {
    try (RecordingWriter w = RecordingWriter.create(file)) {
      Recorded.Header h = header();
      if (!options.isEmpty()) {
        options.forEach(h.config().putObject("options")::put);
      }
      w.write(h);
      w.write(new Recorded.Topology(START, TOPOLOGY, Map.of("src", 1, "op", 1)));
      for (int t = 0; t <= seconds; t++) {
        w.write(new Recorded.Sample(sample(t, rate, trueRate)));
      }
      w.write(
          new Recorded.Event(
              START.plusSeconds(seconds),
              "problem",
              "just a note",
              RecordingFormat.MAPPER.createObjectNode()));
    }
    return file;
  }

  static Recorded.Header header() {
    ObjectNode config = RecordingFormat.MAPPER.createObjectNode().put("ds2Version", "test");
    return new Recorded.Header(
        RecordingFormat.VERSION,
        START,
        "http://127.0.0.1:8081",
        TOPOLOGY.jobId(),
        TOPOLOGY.jobName(),
        Optional.of("1.20.3"),
        Duration.ofSeconds(1),
        Optional.of(Duration.ofSeconds(1)),
        config);
  }

  static JobSample sample(int t, double rate, double trueRate) {
    double records = rate * t;
    double busyMs = records / trueRate * 1000;
    Map<String, VertexSample> v = new LinkedHashMap<>();
    v.put(
        "src",
        new VertexSample(
            "src",
            "RUNNING",
            1,
            List.of(SubtaskSample.of(0, 0, records, 0, t * 1000.0, 0)),
            OptionalDouble.of(0)));
    v.put(
        "op",
        new VertexSample(
            "op",
            "RUNNING",
            1,
            List.of(SubtaskSample.of(0, records, records, busyMs, t * 1000.0 - busyMs, 0)),
            OptionalDouble.empty()));
    return new JobSample(
        START.plusSeconds(t), "RUNNING", START.minusSeconds(60), OptionalLong.of(0), v);
  }
}
