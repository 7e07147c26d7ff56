package io.ds2.recording;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.Vertex;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.split.Split;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SourceFetch;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.SubtaskSample.Counter;
import io.ds2.core.window.VertexSample;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The recording format, version 1: JSON Lines, one record per line with a {@code type} of {@code
 * header} (first), {@code topology}, {@code sample} or {@code event}. Raw cumulative counters are
 * stored per subtask under Flink's metric names, {@code null} where Flink reported nothing; rates
 * are derived at replay, so a better estimator can re-read old data. Times are epoch milliseconds.
 * Readers ignore unknown fields and record types; a newer version is refused.
 */
public final class RecordingFormat {
  public static final String FORMAT = "ds2-recording";
  public static final int VERSION = 1;

  /** The one mapper recordings are read and written with (DS2 logs import through it too). */
  public static final ObjectMapper MAPPER = JsonMapper.builder().build();

  private RecordingFormat() {}

  static ObjectNode toJson(Recorded r) {
    if (r instanceof Recorded.Header h) {
      return header(h);
    }
    if (r instanceof Recorded.Topology t) {
      return topology(t);
    }
    if (r instanceof Recorded.Sample s) {
      return sample(s.sample());
    }
    return event((Recorded.Event) r);
  }

  private static ObjectNode header(Recorded.Header h) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("type", "header").put("format", FORMAT).put("version", h.version());
    n.put("createdAt", h.createdAt().toString()).put("source", h.source());
    n.put("jobId", h.jobId()).put("jobName", h.jobName());
    n.put("flinkVersion", h.flinkVersion().orElse(null));
    ObjectNode collector = n.putObject("collector").put("intervalMs", h.interval().toMillis());
    h.metricRefresh().ifPresent(r -> collector.put("metricRefreshMs", r.toMillis()));
    n.set("config", h.config());
    return n;
  }

  private static ObjectNode topology(Recorded.Topology t) {
    ObjectNode n = MAPPER.createObjectNode();
    JobTopology top = t.topology();
    n.put("type", "topology").put("timeMs", t.time().toEpochMilli());
    n.put("jobId", top.jobId()).put("jobName", top.jobName());
    ArrayNode vertices = n.putArray("vertices");
    for (Vertex v : top.graph().topologicalOrder()) {
      ObjectNode vn = vertices.addObject();
      vn.put("id", v.id()).put("name", v.name()).put("maxParallelism", v.maxParallelism());
      v.slotSharingGroup().ifPresent(g -> vn.put("slotSharingGroup", g));
      vn.put("parallelism", t.parallelism().get(v.id()));
      vn.put("source", top.graph().isSource(v.id()));
    }
    ArrayNode edges = n.putArray("edges");
    for (Edge e : top.graph().edges()) {
      edges
          .addObject()
          .put("from", e.from())
          .put("to", e.to())
          .put("shipStrategy", e.shipStrategy());
    }
    return n;
  }

  private static ObjectNode sample(JobSample s) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("type", "sample").put("timeMs", s.time().toEpochMilli());
    n.put("jobState", s.jobState()).put("runningSinceMs", s.runningSince().toEpochMilli());
    if (s.restarts().isPresent()) {
      n.put("numRestarts", s.restarts().getAsLong());
    } else {
      n.putNull("numRestarts");
    }
    ArrayNode vertices = n.putArray("vertices");
    for (VertexSample v : s.vertices().values()) {
      ObjectNode vn = vertices.addObject();
      vn.put("id", v.vertexId()).put("status", v.status()).put("parallelism", v.parallelism());
      put(vn, "pendingRecords", v.pendingRecords());
      if (v.splits().isPresent()) { // per subtask, the splits it reads (KafkaSource)
        ArrayNode by = vn.putArray("splits");
        for (List<Split> splits : v.splits().get().bySubtask()) {
          ArrayNode mine = by.addArray();
          splits.forEach(
              sp -> mine.addObject().put("topic", sp.topic()).put("partition", sp.partition()));
        }
      }
      if (!v.fetches().isEmpty()) { // per gauge, every subtask's value (KafkaSource's consumer)
        ObjectNode fetch = vn.putObject("fetch");
        for (SourceFetch.Gauge g : SourceFetch.Gauge.values()) {
          ArrayNode values = fetch.putArray(g.clientName());
          v.fetches().forEach(f -> add(values, f.get(g)));
        }
      }
      if (!v.emitLagMs().isEmpty()) { // per subtask, how old its last emitted record was (ms)
        ArrayNode values = vn.putArray("emitLagMs");
        v.emitLagMs().forEach(lag -> add(values, lag));
      }
      for (Counter c : Counter.values()) {
        ArrayNode values = vn.putArray(c.flinkName());
        for (SubtaskSample st : v.subtasks()) {
          add(values, st.get(c));
        }
      }
    }
    return n;
  }

  private static ObjectNode event(Recorded.Event e) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("type", "event").put("timeMs", e.time().toEpochMilli());
    n.put("kind", e.kind()).put("message", e.message());
    n.set("details", e.details());
    return n;
  }

  private static void add(ArrayNode values, OptionalDouble v) {
    if (v.isPresent()) {
      values.add(v.getAsDouble());
    } else {
      values.addNull();
    }
  }

  private static void put(ObjectNode n, String field, OptionalDouble v) {
    if (v.isPresent()) {
      n.put(field, v.getAsDouble());
    } else {
      n.putNull(field);
    }
  }

  /** The {@code type} of a parsed line, or empty text if it has none. */
  static String typeOf(JsonNode line) {
    JsonNode t = line.get("type");
    return t != null && t.isTextual() ? t.asText() : "";
  }

  static Instant millis(long ms) {
    return Instant.ofEpochMilli(ms);
  }
}
