package io.ds2.recording;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.InvalidGraphException;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.split.Split;
import io.ds2.core.split.SplitOwnership;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SourceFetch;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.SubtaskSample.Counter;
import io.ds2.core.window.VertexSample;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Checks one parsed line of a recording and turns it into a {@link Recorded}. Every problem is an
 * {@link IllegalArgumentException} whose message names the field and what is wrong with it.
 */
final class RecordParser {
  // Beyond this a line is not a plausible Flink job (and a fuzzed one must not exhaust memory).
  private static final int MAX_PARALLELISM = 32_768;
  // Epoch milliseconds up to the year 3000: anything later is damage, and would overflow the
  // replay's time arithmetic.
  private static final long MAX_TIME_MS = 32_503_680_000_000L;

  private RecordParser() {}

  static Recorded.Header header(JsonNode n) {
    String format = text(n, "format");
    if (!RecordingFormat.FORMAT.equals(format)) {
      throw bad("format is '" + format + "', expected '" + RecordingFormat.FORMAT + "'");
    }
    int version = (int) integer(n, "version", 1, Integer.MAX_VALUE);
    if (version > RecordingFormat.VERSION) {
      throw bad(
          "recording format version "
              + version
              + " is newer than this ds2 reads (up to "
              + RecordingFormat.VERSION
              + "); use a newer ds2");
    }
    JsonNode collector = n.path("collector");
    Duration interval =
        Duration.ofMillis(
            collector.isObject() ? integer(collector, "intervalMs", 1, MAX_TIME_MS) : 1);
    Optional<Duration> refresh =
        collector.hasNonNull("metricRefreshMs")
            ? Optional.of(Duration.ofMillis(integer(collector, "metricRefreshMs", 0, MAX_TIME_MS)))
            : Optional.empty();
    JsonNode config = n.get("config");
    return new Recorded.Header(
        version,
        instant(text(n, "createdAt"), "createdAt"),
        text(n, "source"),
        text(n, "jobId"),
        optionalText(n, "jobName").orElse(""),
        optionalText(n, "flinkVersion"),
        interval,
        refresh,
        config instanceof ObjectNode o ? o : RecordingFormat.MAPPER.createObjectNode());
  }

  static Recorded.Topology topology(JsonNode n) {
    List<Vertex> vertices = new ArrayList<>();
    Map<String, Integer> parallelism = new LinkedHashMap<>();
    for (JsonNode v : array(n, "vertices")) {
      String id = text(v, "id");
      vertices.add(
          new Vertex(
              id,
              optionalText(v, "name").orElse(id),
              (int) integer(v, "maxParallelism", 1, MAX_PARALLELISM),
              optionalText(v, "slotSharingGroup")));
      if (v.hasNonNull("parallelism")) {
        parallelism.put(id, (int) integer(v, "parallelism", 1, MAX_PARALLELISM));
      }
    }
    List<Edge> edges = new ArrayList<>();
    for (JsonNode e : array(n, "edges")) {
      edges.add(
          new Edge(text(e, "from"), text(e, "to"), optionalText(e, "shipStrategy").orElse(null)));
    }
    try {
      JobGraph graph = JobGraph.of(vertices, edges);
      return new Recorded.Topology(
          time(n),
          new JobTopology(text(n, "jobId"), optionalText(n, "jobName").orElse(""), graph),
          parallelism);
    } catch (InvalidGraphException e) {
      throw bad("topology is not a valid dataflow graph: " + e.getMessage());
    }
  }

  static Recorded.Sample sample(JsonNode n) {
    Map<String, VertexSample> vertices = new LinkedHashMap<>();
    for (JsonNode v : array(n, "vertices")) {
      VertexSample vs = vertex(v);
      if (vertices.put(vs.vertexId(), vs) != null) {
        throw bad("vertex " + vs.vertexId() + " appears twice");
      }
    }
    JsonNode restarts = n.get("numRestarts");
    return new Recorded.Sample(
        new JobSample(
            time(n),
            text(n, "jobState"),
            RecordingFormat.millis(integer(n, "runningSinceMs", 0, MAX_TIME_MS)),
            restarts == null || restarts.isNull()
                ? OptionalLong.empty()
                : OptionalLong.of(integer(n, "numRestarts", 0, Long.MAX_VALUE)),
            vertices));
  }

  private static VertexSample vertex(JsonNode v) {
    String id = text(v, "id");
    int parallelism = (int) integer(v, "parallelism", 1, MAX_PARALLELISM);
    List<OptionalDouble[]> columns = new ArrayList<>();
    for (Counter c : Counter.values()) {
      columns.add(column(v.get(c.flinkName()), "vertex " + id + ": " + c.flinkName(), parallelism));
    }
    List<SubtaskSample> subtasks = new ArrayList<>();
    for (int i = 0; i < parallelism; i++) {
      subtasks.add(
          new SubtaskSample(
              i,
              columns.get(0)[i],
              columns.get(1)[i],
              columns.get(2)[i],
              columns.get(3)[i],
              columns.get(4)[i]));
    }
    JsonNode pending = v.get("pendingRecords");
    return new VertexSample(
        id,
        text(v, "status"),
        parallelism,
        subtasks,
        pending == null || pending.isNull()
            ? OptionalDouble.empty()
            : counter(pending, "vertex " + id + ": pendingRecords"),
        splits(v, id, parallelism),
        fetches(v, id, parallelism),
        emitLag(v, id, parallelism));
  }

  /** Per subtask, how old its last emitted record was; absent in recordings made before it. */
  private static List<OptionalDouble> emitLag(JsonNode v, String id, int parallelism) {
    JsonNode values = v.get("emitLagMs");
    if (values == null || values.isNull()) {
      return List.of();
    }
    return Arrays.asList(column(values, "vertex " + id + ": emitLagMs", parallelism));
  }

  private static OptionalDouble[] absent(int parallelism) {
    OptionalDouble[] column = new OptionalDouble[parallelism];
    Arrays.fill(column, OptionalDouble.empty());
    return column;
  }

  /** One value (or null) per subtask. */
  private static OptionalDouble[] column(JsonNode values, String where, int parallelism) {
    if (values == null || !values.isArray()) {
      throw bad(where + " is not an array");
    }
    if (values.size() != parallelism) {
      throw bad(where + " has " + values.size() + " values for parallelism " + parallelism);
    }
    OptionalDouble[] column = new OptionalDouble[parallelism];
    for (int i = 0; i < parallelism; i++) {
      column[i] = counter(values.get(i), where + "[" + i + "]");
    }
    return column;
  }

  /** Per subtask, its client's fetch gauges; absent in recordings made before they were kept. */
  private static List<SourceFetch> fetches(JsonNode v, String id, int parallelism) {
    JsonNode fetch = v.get("fetch");
    if (fetch == null || fetch.isNull()) {
      return List.of();
    }
    if (!fetch.isObject()) {
      throw bad("vertex " + id + ": fetch is not an object of gauges");
    }
    SourceFetch.Gauge[] gauges = SourceFetch.Gauge.values();
    List<OptionalDouble[]> columns = new ArrayList<>();
    for (SourceFetch.Gauge g : gauges) {
      JsonNode values = fetch.get(g.clientName());
      // A gauge kept later than the others (fetch-size-avg) is missing from older recordings.
      columns.add(
          values == null
              ? absent(parallelism)
              : column(values, "vertex " + id + ": fetch." + g.clientName(), parallelism));
    }
    List<SourceFetch> fetches = new ArrayList<>();
    for (int i = 0; i < parallelism; i++) {
      OptionalDouble[] byGauge = new OptionalDouble[gauges.length];
      for (SourceFetch.Gauge g : gauges) {
        byGauge[g.ordinal()] = columns.get(g.ordinal())[i];
      }
      fetches.add(SourceFetch.of(byGauge));
    }
    return fetches;
  }

  /** Per subtask, the splits it reads; absent in recordings made before sources were sized. */
  private static Optional<SplitOwnership> splits(JsonNode v, String id, int parallelism) {
    JsonNode by = v.get("splits");
    if (by == null || by.isNull()) {
      return Optional.empty();
    }
    if (!by.isArray() || by.size() != parallelism) {
      throw bad(
          "vertex " + id + ": splits is not an array of " + parallelism + " subtasks' splits");
    }
    List<List<Split>> owned = new ArrayList<>();
    for (int i = 0; i < parallelism; i++) {
      JsonNode mine = by.get(i);
      if (!mine.isArray()) {
        throw bad("vertex " + id + ": splits[" + i + "] is not an array");
      }
      List<Split> splits = new ArrayList<>();
      for (JsonNode sp : mine) {
        String where = "vertex " + id + ": splits[" + i + "]";
        if (!sp.isObject() || !sp.path("topic").isTextual()) {
          throw bad(where + " has a split without a topic");
        }
        splits.add(
            new Split(
                sp.get("topic").asText(), (int) integer(sp, "partition", 0, Integer.MAX_VALUE)));
      }
      owned.add(splits);
    }
    return Optional.of(new SplitOwnership(owned));
  }

  static Recorded.Event event(JsonNode n) {
    JsonNode details = n.get("details");
    return new Recorded.Event(
        time(n),
        text(n, "kind"),
        optionalText(n, "message").orElse(""),
        details instanceof ObjectNode o ? o : RecordingFormat.MAPPER.createObjectNode());
  }

  private static OptionalDouble counter(JsonNode value, String where) {
    if (value.isNull()) {
      return OptionalDouble.empty();
    }
    if (value.isNumber() && !Double.isFinite(value.asDouble())) {
      throw bad(where + " is out of range (beyond any double), expected a number >= 0 or null");
    }
    if (!value.isNumber() || value.asDouble() < 0) {
      throw bad(where + " is " + value + ", expected a number >= 0 or null");
    }
    return OptionalDouble.of(value.asDouble());
  }

  private static Instant time(JsonNode n) {
    return RecordingFormat.millis(integer(n, "timeMs", 0, MAX_TIME_MS));
  }

  private static Instant instant(String text, String field) {
    try {
      Instant t = Instant.parse(text);
      if (t.isBefore(Instant.EPOCH) || t.toEpochMilli() > MAX_TIME_MS) {
        throw bad(field + " is " + t + ", expected a time between 1970 and 3000");
      }
      return t;
    } catch (DateTimeParseException | ArithmeticException e) {
      throw bad(field + " is '" + text + "', expected an ISO-8601 instant");
    }
  }

  private static Iterable<JsonNode> array(JsonNode n, String field) {
    JsonNode a = n.get(field);
    if (a == null || !a.isArray()) {
      throw bad(field + " is missing or not an array");
    }
    return a;
  }

  private static String text(JsonNode n, String field) {
    JsonNode t = n.get(field);
    if (t == null || !t.isTextual() || t.asText().isEmpty()) {
      throw bad(field + " is missing or not a non-empty string");
    }
    return t.asText();
  }

  private static Optional<String> optionalText(JsonNode n, String field) {
    JsonNode t = n.get(field);
    if (t == null || t.isNull()) {
      return Optional.empty();
    }
    if (!t.isTextual()) {
      throw bad(field + " is " + t + ", expected a string");
    }
    return Optional.of(t.asText());
  }

  private static long integer(JsonNode n, String field, long min, long max) {
    JsonNode v = n.get(field);
    if (v == null || !v.canConvertToLong() || !v.isIntegralNumber()) {
      throw bad(field + " is missing or not an integer");
    }
    long value = v.asLong();
    if (value < min || value > max) {
      throw bad(field + " is " + value + ", expected " + min + " to " + max);
    }
    return value;
  }

  private static IllegalArgumentException bad(String message) {
    return new IllegalArgumentException(message);
  }
}
