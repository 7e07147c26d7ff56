package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import io.ds2.recording.Recorded;
import io.ds2.recording.RecordingWriter;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.JobSpec.OperatorSpec;
import io.ds2.workloads.JobSpec.SourceSpec;
import io.ds2.workloads.source.RateSchedule;
import java.nio.file.Files;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SASO figures from a hand-made recording whose answers are known. */
class SasoTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
  @TempDir Path dir;

  // Source 100/s -> Work 18 ms: load 1.8, oracle 2 (90 % busy); at x2: 3.6, oracle 4. (At 20 ms a
  // load of exactly 2.0 would need 3: two instances 100 % busy do not keep up.)
  private static final Scenario SCENARIO =
      new Scenario(
          "test",
          "test",
          new JobSpec(
                  "test",
                  List.of(new SourceSpec("In", RateSchedule.constant(100), 1)),
                  List.of(new OperatorSpec("Work", List.of("In"), 18, 1, 1, false, 0)))
              .unchained("the recording written below has Source: In and Work as two vertices"),
          List.of(new Scenario.Phase(0, 1), new Scenario.Phase(10, 2)),
          Duration.ofSeconds(20));

  @Test
  void stepsSettlingSlotSecondsUnderProvisioningAndFeedStallsAreCountedPerPhase() throws Exception {
    JobTopology topology =
        new JobTopology(
            "j",
            "test",
            JobGraph.of(
                List.of(new Vertex("s", "Source: In", 128), new Vertex("w", "Work", 128)),
                List.of(new Edge("s", "w", "REBALANCE"))));
    Path file = dir.resolve("test__x.jsonl.gz");
    try (RecordingWriter w = RecordingWriter.create(file)) {
      w.write(
          new Recorded.Header(
              1,
              T0,
              "test",
              "j",
              "test",
              Optional.empty(),
              Duration.ofSeconds(1),
              Optional.empty(),
              JSON.createObjectNode()));
      w.write(new Recorded.Topology(T0, topology, Map.of("s", 1, "w", 1)));
      w.write(phase(0, 1, T0));
      // Work: 1 until 3 s, 2 until 12 s, 3 until 14 s, then 4 (one step in phase 0, two in 1).
      for (int t = 0; t <= 20; t++) {
        int p = t < 3 ? 1 : t < 12 ? 2 : t < 14 ? 3 : 4;
        if (t == 10) {
          w.write(phase(1, 2, T0.plusSeconds(10)));
        }
        if (t == 15 || t == 16) { // the producers stalled and caught up
          w.write(
              new Recorded.Event(
                  T0.plusSeconds(t),
                  ScenarioRun.FEED_BEHIND,
                  "behind",
                  JSON.createObjectNode().put("records", t == 15 ? 300 : 120)));
        }
        if (t == 3 || t == 12 || t == 14) {
          w.write(
              new Recorded.Event(
                  T0.plusSeconds(t), "rescale-applied", "applied", JSON.createObjectNode()));
        }
        w.write(new Recorded.Sample(sample(t, p)));
      }
    }
    Saso.Result r = Saso.compute(SCENARIO, "x", file, new DecisionTimer(), 1, 0.5);
    assertEquals(3, r.steps());
    Saso.Phase first = r.phases().get(0);
    assertEquals(1, first.steps());
    assertEquals(3, first.settleSeconds(), 1e-9);
    assertTrue(first.reachedOracle());
    Saso.Phase second = r.phases().get(1);
    assertEquals(2, second.steps());
    assertEquals(4, second.settleSeconds(), 1e-9);
    assertEquals(Map.of("Source: In", 1, "Work", 4), second.finalParallelism());
    assertTrue(second.reachedOracle());
    assertEquals(0, first.feedBehindPeak(), 1e-9);
    assertEquals(300, second.feedBehindPeak(), 1e-9);
    // Below the oracle: 0-3 s (1 < 2) and 10-14 s (2, 3 < 4).
    assertEquals(7, r.underProvisionedSeconds(), 1e-9);
    // Slots = widest vertex: 1x3 + 2x9 + 3x2 + 4x6 = 51; oracle 2x10 + 4x10 = 60.
    assertEquals(51, r.slotSeconds(), 1e-9);
    assertEquals(60, r.oracleSlotSeconds(), 1e-9);
    // At a target of 0.5 busy: load 1.8 needs 4 (45 %), 3.6 needs 8: 4x10 + 8x10.
    assertEquals(120, r.targetOracleSlotSeconds(), 1e-9);
    assertFalse(Files.readString(dir.resolve("test__x.csv")).isEmpty());
    assertTrue(Files.size(dir.resolve("test__x.png")) > 0);
  }

  private static Recorded.Event phase(int index, double factor, Instant at) {
    ObjectNode d = JSON.createObjectNode().put("index", index).put("factor", factor);
    d.put("startMs", T0.toEpochMilli());
    return new Recorded.Event(at, "phase", "load", d);
  }

  private static JobSample sample(int t, int p) {
    Map<String, VertexSample> v = new LinkedHashMap<>();
    v.put(
        "s",
        new VertexSample(
            "s", "RUNNING", 1, List.of(SubtaskSample.of(0, 0, t, 0, t, 0)), OptionalDouble.of(0)));
    List<SubtaskSample> subtasks = new ArrayList<>();
    for (int i = 0; i < p; i++) {
      subtasks.add(SubtaskSample.of(i, t, t, t, t, 0));
    }
    v.put("w", new VertexSample("w", "RUNNING", p, subtasks, OptionalDouble.empty()));
    return new JobSample(T0.plusSeconds(t), "RUNNING", T0, OptionalLong.of(0), v);
  }
}
