package io.ds2.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ds2.core.estimate.DemandEstimator;
import io.ds2.core.estimate.RateModel;
import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.window.Backlog;
import io.ds2.core.window.ObservationWindow;
import io.ds2.core.window.RecordAge;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.TimeBase;
import io.ds2.core.window.VertexObservation;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** A source's demand in the estimate's JSON says where it came from. */
class EstimateJsonTest {
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source", 128), new Vertex("k", "Sink", 128)),
          List.of(new Edge("s", "k", "REBALANCE")));

  @Test
  void aDemandReadFromTheRecordsAgeShowsTheFit() {
    Backlog standing =
        new Backlog(
            1500, 0, 140, 3, 30, OptionalDouble.empty(), OptionalDouble.empty(), 30, 0, 0, false);
    VertexObservation source =
        new VertexObservation(
                "s",
                1,
                30,
                TimeBase.TASK_TIME,
                4440,
                4440,
                OptionalDouble.of(0),
                OptionalDouble.of(0),
                OptionalDouble.of(30_000),
                List.of(SubtaskSample.of(0, 4440, 4440, 0, 0, 30_000)),
                Optional.of(standing))
            .withRecordAge(Optional.of(new RecordAge(246.7, 148, 0.4, 40, false)));
    VertexObservation sink =
        new VertexObservation(
            "k",
            1,
            30,
            TimeBase.TASK_TIME,
            4440,
            0,
            OptionalDouble.of(27_000),
            OptionalDouble.of(3_000),
            OptionalDouble.of(0),
            List.of(SubtaskSample.of(0, 4440, 0, 27_000, 3_000, 0)),
            Optional.empty());
    Map<String, VertexObservation> vertices = new LinkedHashMap<>();
    vertices.put("s", source);
    vertices.put("k", sink);
    Instant t0 = Instant.parse("2026-12-05T00:00:00Z");
    ObservationWindow window = new ObservationWindow(t0, t0.plusSeconds(30), vertices);
    SourceDemand d = DemandEstimator.infer(source, Optional.empty());
    JsonNode s =
        EstimateJson.toNode(
                new JobTopology("j", "job", GRAPH),
                RateModel.estimate(
                    GRAPH,
                    window,
                    Map.of("s", d),
                    Ds2Options.defaults(),
                    KeyedHistory.empty(),
                    Map.of()))
            .get("vertices")
            .get(0);
    assertEquals("RECORD_AGE", s.get("demand").get("basis").asText());
    assertEquals(246.7, s.get("demand").get("targetRate").asDouble(), 1e-9);
    JsonNode age = s.get("observed").get("recordAge");
    assertEquals(246.7, age.get("arrivalRate").asDouble(), 1e-9);
    assertEquals(148, age.get("readRate").asDouble(), 1e-9);
    assertEquals(0.4, age.get("growth").asDouble(), 1e-9);
    assertEquals(40, age.get("sinceHeadsSeconds").asDouble(), 1e-9);
    assertFalse(age.get("capped").asBoolean());
    assertTrue(s.get("observed").has("arrivalRate"));
  }
}
