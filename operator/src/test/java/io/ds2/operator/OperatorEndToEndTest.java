package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.keyed.KeyedHistory;
import io.ds2.flink.FlinkRestClient;
import io.ds2.recording.Recorded;
import io.ds2.recording.RecordingReader;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.SampleJobs;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator end to end: fabric8 mock API server (CRUD), a real MiniCluster job started at
 * parallelism 1, and a stand-in Flink operator. ds2 patches the overrides, the stand-in rescales in
 * place, and the job reaches the closed-form oracle; events say so.
 */
@EnableKubernetesMockClient(crud = true)
class OperatorEndToEndTest {
  KubernetesMockServer server;
  KubernetesClient client;

  private static Map<String, String> annotations(String restUrl, String mode) {
    Map<String, String> a = new HashMap<>();
    a.put(JobSettings.AUTOSCALING, mode);
    a.put(JobSettings.REST_URL, restUrl);
    a.put("ds2.io/window", "6s");
    a.put("ds2.io/warm-up", "4s");
    a.put("ds2.io/sample-interval", "500ms");
    a.put("ds2.io/activation", "1");
    a.put("ds2.io/rescale-timeout", "60s");
    return a;
  }

  @TempDir Path recordings;

  @Test
  void scalesAJobToTheOracleThroughOverrides() throws Exception {
    OperatorTestSupport.registerKinds(server);
    JobSpec spec = SampleJobs.ordersAndPayments();
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.startWithFastTimings(
            4,
            Map.of(),
            "the operator's short test windows must see several metric refreshes, and each"
                + " rescale take effect in seconds")) {
      JobClient job = OperatorTestSupport.submitRunning(cluster, spec);
      String jobId = job.getJobID().toHexString();
      FlinkRestClient rest = new FlinkRestClient(cluster.restUrl(), Duration.ofSeconds(10));
      OperatorTestSupport.create(
          client,
          "orders",
          annotations(cluster.restUrl().toString(), "enabled"),
          Map.of(),
          StandInFlinkOperator.status(1, jobId));
      long start = System.nanoTime();
      OperatorMetrics metrics = new OperatorMetrics();
      try (StandInFlinkOperator flinkOperator =
              new StandInFlinkOperator(client, OperatorTestSupport.NS, rest, jobId);
          Ds2Operator ds2 =
              OperatorTestSupport.operator(client, metrics, cluster.restUrl())
                  .recordingTo(recordings);
          HealthServer management =
              new HealthServer("127.0.0.1", 0, () -> true, ds2::synced, metrics)) {
        ds2.start();
        Map<String, Integer> oracle = spec.oracle();
        await()
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> OperatorTestSupport.runningParallelism(rest, jobId).equals(oracle));
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> !OperatorTestSupport.events(client, "ScalingApplied").isEmpty());
        double seconds = (System.nanoTime() - start) / 1e9;
        GenericKubernetesResource r = OperatorTestSupport.get(client, "orders");
        String overrides =
            String.valueOf(FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES));
        System.out.println(
            "operator: oracle "
                + oracle
                + " reached in "
                + String.format("%.1f", seconds)
                + " s; overrides "
                + overrides
                + "; events "
                + client
                    .v1()
                    .events()
                    .inNamespace(OperatorTestSupport.NS)
                    .list()
                    .getItems()
                    .stream()
                    .map(e -> e.getReason() + ": " + e.getMessage())
                    .toList());
        assertEquals(1, flinkOperator.applied.get(), "one patch, applied once");
        assertTrue(r.getMetadata().getAnnotations().containsKey(JobSettings.LAST_DECISION));
        assertEquals(overrides, r.getMetadata().getAnnotations().get(JobSettings.APPLIED));
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    OperatorTestSupport.get(client, "orders")
                        .getMetadata()
                        .getAnnotations()
                        .containsKey(PolicyStateAnnotation.KEY));
        // What it learnt of the keyed Join's spread is saved too, for a restart or a new leader.
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    KeyedHistoryAnnotation.read(
                                    OperatorTestSupport.get(client, "orders")
                                        .getMetadata()
                                        .getAnnotations())
                                .orElse(null)
                            instanceof StateAnnotation.Restored<KeyedHistory> h
                        && h.value().byVertex().size() == 1);
        // Cleared by a merge-patch null: removed on a real API server, null on the mock.
        assertEquals(null, r.getMetadata().getAnnotations().get(JobSettings.IN_FLIGHT));
        assertEquals(1, r.getMetadata().getGeneration() - 1, "exactly one spec change");
        String url = "http://127.0.0.1:" + management.port();
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    scrape(url + "/metrics")
                        .contains(
                            "ds2_vertex_parallelism{namespace=\"flink\",resource=\"orders\",vertex=\"Join -> Sink\"} 4.0"));
        String text = scrape(url + "/metrics");
        assertTrue(
            text.contains(
                "ds2_rescales_total{namespace=\"flink\",outcome=\"applied\",resource=\"orders\"} 1.0"),
            text);
        assertTrue(text.contains("ds2_vertex_true_processing_rate{"), text);
        assertEquals("ok\n", scrape(url + "/healthz"));
        assertEquals("ok\n", scrape(url + "/readyz"));
      }
      job.cancel().get();
      // The operator recorded what it saw and did, readable by whatif.
      List<Path> files;
      try (var listing = Files.list(recordings)) {
        files = listing.toList();
      }
      assertEquals(1, files.size(), files.toString());
      assertTrue(
          files.get(0).getFileName().toString().startsWith("flink_orders_"), files.toString());
      Map<String, Integer> kinds = new HashMap<>();
      try (RecordingReader reader = RecordingReader.open(files.get(0), false)) {
        assertEquals(jobId, reader.header().jobId());
        for (var r = reader.next(); r.isPresent(); r = reader.next()) {
          String kind =
              r.get() instanceof Recorded.Event e ? e.kind() : r.get().getClass().getSimpleName();
          kinds.merge(kind, 1, Integer::sum);
        }
      }
      assertTrue(kinds.getOrDefault("Sample", 0) > 10, kinds.toString());
      assertTrue(kinds.getOrDefault("Topology", 0) >= 2, "before and after the rescale: " + kinds);
      assertEquals(1, kinds.getOrDefault("rescale-requested", 0), kinds.toString());
      assertEquals(1, kinds.getOrDefault("rescale-applied", 0), kinds.toString());
      assertTrue(kinds.getOrDefault("decision", 0) >= 1, kinds.toString());
    }
  }

  private static String scrape(String url) throws java.io.IOException {
    try (okhttp3.Response r =
        new okhttp3.OkHttpClient()
            .newCall(new okhttp3.Request.Builder().url(url).build())
            .execute()) {
      return r.body().string();
    }
  }

  @Test
  void builtInAutoscalerMeansAdviceOnlyAndAWarning() {
    OperatorTestSupport.registerKinds(server);
    OperatorTestSupport.create(
        client,
        "conflict",
        annotations(OperatorTestSupport.NOTHING_LISTENS, "enabled"),
        Map.of("job.autoscaler.enabled", "true"),
        Map.of());
    try (Ds2Operator ds2 = OperatorTestSupport.operator(client, new OperatorMetrics())) {
      ds2.start();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> !OperatorTestSupport.events(client, "ConflictingAutoscaler").isEmpty());
      var e = OperatorTestSupport.events(client, "ConflictingAutoscaler").get(0);
      assertEquals("Warning", e.getType());
      assertEquals("conflict", e.getInvolvedObject().getName());
      GenericKubernetesResource r = OperatorTestSupport.get(client, "conflict");
      assertFalse(FlinkKinds.flinkConfiguration(r).containsKey(FlinkKinds.OVERRIDES), "no patch");
    }
  }

  @Test
  void invalidAnnotationIsAWarningNamingItAndTheJobIsUntouched() {
    OperatorTestSupport.registerKinds(server);
    Map<String, String> a = annotations(OperatorTestSupport.NOTHING_LISTENS, "enabled");
    a.put("ds2.io/target-utilization", "1.7");
    OperatorTestSupport.create(client, "bad", a, Map.of(), Map.of());
    try (Ds2Operator ds2 = OperatorTestSupport.operator(client, new OperatorMetrics())) {
      ds2.start();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> !OperatorTestSupport.events(client, "InvalidAnnotation").isEmpty());
      String message = OperatorTestSupport.events(client, "InvalidAnnotation").get(0).getMessage();
      assertEquals(
          "annotation ds2.io/target-utilization: invalid value '1.7' for target-utilization: must"
              + " be in (0, 1]; ds2 leaves this job untouched",
          message);
      assertEquals(0, ds2.managed());
    }
  }
}
