package io.ds2.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.scaler.JobTopology;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SourceFetch;
import io.ds2.core.window.SubtaskSample;
import io.ds2.flink.FlinkRestException.Kind;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sampler's reading of Flink's metric answers, including broken values. */
class JobSamplerTest {
  private static final String DETAILS =
      "{\"jid\":\"j\",\"name\":\"job\",\"state\":\"RUNNING\",\"timestamps\":{\"RUNNING\":1000},"
          + "\"vertices\":[{\"id\":\"s\",\"name\":\"Source: S\",\"parallelism\":1,\"maxParallelism\":128,\"status\":\"RUNNING\"},"
          + "{\"id\":\"w\",\"name\":\"Work\",\"parallelism\":2,\"maxParallelism\":128,\"status\":\"RUNNING\"}],"
          + "\"plan\":{\"nodes\":[{\"id\":\"s\"},{\"id\":\"w\",\"inputs\":[{\"num\":0,\"id\":\"s\",\"ship_strategy\":\"HASH\"}]}]}}";
  private static final String NAMES =
      "[{\"id\":\"numRecordsIn\"},{\"id\":\"numRecordsOut\"},{\"id\":\"accumulateBusyTimeMs\"},"
          + "{\"id\":\"accumulateIdleTimeMs\"},{\"id\":\"accumulateBackPressuredTimeMs\"},"
          + "{\"id\":\"Source__S.pendingRecords\"},{\"id\":\"busyTimeMsPerSecond\"}]";
  private final Map<String, String> bodies = new ConcurrentHashMap<>();
  private MockWebServer server;
  private JobSampler sampler;

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest r) {
            String path = r.getPath().split("\\?")[0];
            // a listing of names (no ?get=) may be answered apart from a read of values
            String body =
                r.getPath().contains("?")
                    ? bodies.get(path)
                    : bodies.getOrDefault(path + "#list", bodies.get(path));
            return body == null
                ? new MockResponse().setResponseCode(404).setBody("{\"errors\":[\"Not found\"]}")
                : new MockResponse().setBody(body);
          }
        });
    server.start(InetAddress.getLoopbackAddress(), 0);
    sampler =
        new JobSampler(
            new FlinkRestClient(server.url("/").uri(), Duration.ofSeconds(2)),
            "j",
            Clock.systemUTC());
    bodies.put("/jobs/j/vertices/s/subtasks/metrics", NAMES);
    bodies.put("/jobs/j/vertices/w/subtasks/metrics", NAMES);
    bodies.put("/jobs/j/metrics", "[{\"id\":\"numRestarts\",\"value\":\"0\"}]");
    bodies.put(
        "/jobs/j/vertices/s/metrics",
        "[{\"id\":\"0.numRecordsOut\",\"value\":\"500\"},"
            + "{\"id\":\"0.Source__S.pendingRecords\",\"value\":\"42\"}]");
    bodies.put("/jobs/j", DETAILS);
  }

  @AfterEach
  void stop() throws Exception {
    server.shutdown();
  }

  @Test
  void readsTopologyAndPerSubtaskCountersWithNaNAsMissing() {
    bodies.put(
        "/jobs/j/vertices/w/metrics",
        "[{\"id\":\"0.numRecordsIn\",\"value\":\"100\"},{\"id\":\"0.accumulateBusyTimeMs\",\"value\":\"NaN\"},"
            + "{\"id\":\"1.numRecordsIn\",\"value\":\"-5\"},{\"id\":\"1.accumulateBusyTimeMs\",\"value\":\"250.0\"}]");
    JobTopology t = sampler.topology();
    assertEquals(1, t.graph().inputsOf("w").size());
    assertTrue(t.graph().inputsOf("w").get(0).keyed());
    JobSample s = sampler.sample(t.graph());
    SubtaskSample w0 = s.vertices().get("w").subtasks().get(0);
    SubtaskSample w1 = s.vertices().get("w").subtasks().get(1);
    assertEquals(100, w0.recordsIn().getAsDouble());
    assertTrue(w0.busyTimeMs().isEmpty(), "NaN is missing, never 0");
    assertTrue(w1.recordsIn().isEmpty(), "a negative counter is unusable");
    assertEquals(250, w1.busyTimeMs().getAsDouble());
    assertTrue(w0.recordsOut().isEmpty(), "absent stays absent");
    assertEquals(42, s.vertices().get("s").pendingRecords().getAsDouble());
    assertEquals(0, s.restarts().getAsLong());
    assertEquals(1000, s.runningSince().toEpochMilli());
  }

  /**
   * Flink answers for subtask 0 of Work only (subtask 1's task manager has not reported yet): the
   * sample still has both subtasks, and every counter of subtask 1 is missing, never 0, so no
   * window is made of it (WindowBuilder refuses a missing counter, naming vertex and subtask).
   */
  @Test
  void aSubtaskMissingFromFlinksAnswerIsMissingNeverZero() {
    bodies.put(
        "/jobs/j/vertices/w/metrics",
        "[{\"id\":\"0.numRecordsIn\",\"value\":\"100\"},"
            + "{\"id\":\"0.accumulateBusyTimeMs\",\"value\":\"250\"}]");
    JobTopology t = sampler.topology();
    JobSample s = sampler.sample(t.graph());
    assertEquals(2, s.vertices().get("w").subtasks().size());
    SubtaskSample w1 = s.vertices().get("w").subtasks().get(1);
    assertTrue(w1.recordsIn().isEmpty());
    assertTrue(w1.busyTimeMs().isEmpty());
    assertTrue(w1.recordsOut().isEmpty());
  }

  @Test
  void nonNumericValueIsMalformedAndNamesTheMetric() {
    bodies.put("/jobs/j/vertices/w/metrics", "[{\"id\":\"0.numRecordsIn\",\"value\":\"lots\"}]");
    JobTopology t = sampler.topology();
    FlinkRestException e = assertThrows(FlinkRestException.class, () -> sampler.sample(t.graph()));
    assertEquals(Kind.MALFORMED_RESPONSE, e.kind());
    assertTrue(
        e.getMessage().contains("metric 0.numRecordsIn has non-numeric value 'lots'"),
        e.getMessage());
  }

  @Test
  void planWithAnEdgeToAnUnknownVertexIsMalformed() {
    bodies.put(
        "/jobs/j",
        DETAILS.replace("\"id\":\"s\",\"ship_strategy\"", "\"id\":\"ghost\",\"ship_strategy\""));
    FlinkRestException e = assertThrows(FlinkRestException.class, sampler::topology);
    assertEquals(Kind.MALFORMED_RESPONSE, e.kind());
    assertTrue(
        e.getMessage()
            .endsWith(
                "job plan is not a valid DAG: edge ghost -> w refers to unknown vertex ghost"),
        e.getMessage());
  }

  @Test
  void aVertexThatIsGoneMeansTheGraphChangedAndIsNeverSampledAsZero() {
    JobTopology before = sampler.topology();
    // The job now runs a new graph: Work was replaced by Enrich.
    bodies.put("/jobs/j", DETAILS.replace("\"w\"", "\"e\"").replace("Work", "Enrich"));
    FlinkRestException e =
        assertThrows(FlinkRestException.class, () -> sampler.sample(before.graph()));
    assertEquals(Kind.METRICS_UNAVAILABLE, e.kind());
    assertTrue(e.getMessage().contains("the job graph changed"), e.getMessage());
    assertTrue(
        sampler.topology().graph().vertex("e").isPresent(), "the next read sees the new graph");
  }

  @Test
  void aSourceCountsTheRecordsItReadsAtItsOperatorNotItsTask() {
    // FLIP-27 sources leave the task's numRecordsIn at 0; the source operator counts reads.
    bodies.put(
        "/jobs/j/vertices/s/subtasks/metrics",
        NAMES.replace("]", ",{\"id\":\"Source__S.numRecordsIn\"}]"));
    bodies.put(
        "/jobs/j/vertices/s/metrics",
        "[{\"id\":\"0.numRecordsIn\",\"value\":\"0\"},{\"id\":\"0.numRecordsOut\",\"value\":\"500\"},"
            + "{\"id\":\"0.Source__S.numRecordsIn\",\"value\":\"625\"},"
            + "{\"id\":\"0.Source__S.pendingRecords\",\"value\":\"42\"}]");
    bodies.put("/jobs/j/vertices/w/metrics", "[]");
    JobTopology t = sampler.topology();
    SubtaskSample s0 = sampler.sample(t.graph()).vertices().get("s").subtasks().get(0);
    assertEquals(625, s0.recordsIn().getAsDouble(), "records read, from the source operator");
    assertEquals(500, s0.recordsOut().getAsDouble());
  }

  @Test
  void aKafkaSourceSaysWhichSubtaskReadsWhichPartition() {
    // The source runs at 2 here; its reader names each partition it reads (the topic "orders.v1"
    // as Flink's metric names write it) and reads them per subtask.
    bodies.put("/jobs/j", DETAILS.replace("\"parallelism\":1", "\"parallelism\":2"));
    bodies.put(
        "/jobs/j/vertices/s/subtasks/metrics",
        NAMES.replace(
            "]",
            ",{\"id\":\"Source__S.numRecordsIn\"},{\"id\":\"Source__S.KafkaSourceReader.commitsSucceeded\"}]"));
    bodies.put(
        "/jobs/j/vertices/s/metrics#list",
        "[{\"id\":\"0.Source__S.KafkaSourceReader.topic.orders_v1.partition.0.currentOffset\"},"
            + "{\"id\":\"0.Source__S.KafkaSourceReader.topic.orders_v1.partition.2.currentOffset\"},"
            + "{\"id\":\"0.Source__S.KafkaSourceReader.topic.orders_v1.partition.2.committedOffset\"},"
            + "{\"id\":\"1.Source__S.KafkaSourceReader.topic.orders_v1.partition.1.currentOffset\"},"
            + "{\"id\":\"1.numRecordsOut\"}]");
    bodies.put("/jobs/j/vertices/w/metrics", "[]");
    JobTopology t = sampler.topology();
    io.ds2.core.split.SplitOwnership o =
        sampler.sample(t.graph()).vertices().get("s").splits().orElseThrow();
    assertEquals(
        java.util.List.of(
            java.util.List.of(
                new io.ds2.core.split.Split("orders_v1", 0),
                new io.ds2.core.split.Split("orders_v1", 2)),
            java.util.List.of(new io.ds2.core.split.Split("orders_v1", 1))),
        o.bySubtask());
    assertTrue(o.complete());
    assertTrue(
        sampler.sample(t.graph()).vertices().get("w").splits().isEmpty(), "no splits, no names");
  }

  @Test
  void aKafkaSourceReportsHowItsConsumerFetchesPerSubtask() {
    // KafkaSource registers its consumer's metrics by their Kafka names; an average with no fetch
    // in its window is NaN, which stays absent.
    bodies.put("/jobs/j", DETAILS.replace("\"parallelism\":1", "\"parallelism\":2"));
    String consumer = "Source__S.KafkaSourceReader.KafkaConsumer.";
    bodies.put(
        "/jobs/j/vertices/s/subtasks/metrics",
        NAMES.replace(
            "]",
            ",{\"id\":\""
                + consumer
                + "fetch-rate\"},{\"id\":\""
                + consumer
                + "records-per-request-avg\"},{\"id\":\""
                + consumer
                + "fetch-latency-avg\"},{\"id\":\""
                + consumer
                + "fetch-size-avg\"}]"));
    bodies.put(
        "/jobs/j/vertices/s/metrics",
        "[{\"id\":\"0.Source__S.pendingRecords\",\"value\":\"42\"},"
            + "{\"id\":\"0."
            + consumer
            + "fetch-rate\",\"value\":\"0.4\"},{\"id\":\"0."
            + consumer
            + "records-per-request-avg\",\"value\":\"2473.0\"},{\"id\":\"0."
            + consumer
            + "fetch-latency-avg\",\"value\":\"3.5\"},{\"id\":\"0."
            + consumer
            + "fetch-size-avg\",\"value\":\"524288.0\"},{\"id\":\"1."
            + consumer
            + "fetch-rate\",\"value\":\"1.9\"},{\"id\":\"1."
            + consumer
            + "records-per-request-avg\",\"value\":\"NaN\"}]");
    bodies.put("/jobs/j/vertices/w/metrics", "[]");
    JobTopology t = sampler.topology();
    java.util.List<SourceFetch> f = sampler.sample(t.graph()).vertices().get("s").fetches();
    assertEquals(
        java.util.List.of(
            new SourceFetch(
                OptionalDouble.of(0.4),
                OptionalDouble.of(2473),
                OptionalDouble.of(3.5),
                OptionalDouble.of(524288)),
            new SourceFetch(
                OptionalDouble.of(1.9),
                OptionalDouble.empty(),
                OptionalDouble.empty(),
                OptionalDouble.empty())),
        f);
    assertTrue(
        sampler.sample(t.graph()).vertices().get("w").fetches().isEmpty(), "no client, no gauges");
  }

  @Test
  void aSourceSaysHowOldTheRecordsItEmitsAreWithNoneBeforeItsFirstTimestamp() {
    bodies.put("/jobs/j", DETAILS.replace("\"parallelism\":1", "\"parallelism\":3"));
    bodies.put(
        "/jobs/j/vertices/s/subtasks/metrics",
        NAMES.replace("]", ",{\"id\":\"Source__S.currentEmitEventTimeLag\"}]"));
    // Flink's -1: no record with a timestamp emitted yet.
    bodies.put(
        "/jobs/j/vertices/s/metrics",
        "[{\"id\":\"0.Source__S.pendingRecords\",\"value\":\"42\"},"
            + "{\"id\":\"0.Source__S.currentEmitEventTimeLag\",\"value\":\"48213\"},"
            + "{\"id\":\"1.Source__S.currentEmitEventTimeLag\",\"value\":\"-1\"}]");
    bodies.put("/jobs/j/vertices/w/metrics", "[]");
    JobTopology t = sampler.topology();
    assertEquals(
        java.util.List.of(OptionalDouble.of(48213), OptionalDouble.empty(), OptionalDouble.empty()),
        sampler.sample(t.graph()).vertices().get("s").emitLagMs());
    assertTrue(sampler.sample(t.graph()).vertices().get("w").emitLagMs().isEmpty(), "not a source");
  }
}
