package io.ds2.flink;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.WindowBuilder;
import io.ds2.core.window.WindowResult;
import io.ds2.flink.dto.JobDetails;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.SampleJobs;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** In-place rescaling of a real job through the adaptive scheduler's REST API (8 slots). */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RestRescalerIntegrationTest {
  private static LocalFlinkCluster cluster;
  private static JobClient job;
  private static FlinkRestClient client;
  private static String jobId;
  private static JobGraph graph;
  private static RestRescaler rescaler;

  @BeforeAll
  static void startJob() throws Exception {
    cluster =
        LocalFlinkCluster.startWithFastTimings(
            4,
            Map.of(),
            "its rescales must take effect (1 s cool-downs) and show in the metrics (1 s refresh)"
                + " within seconds");
    job = cluster.submit(SampleJobs.ordersAndPayments());
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> job.getJobStatus().get().name().equals("RUNNING"));
    client = new FlinkRestClient(cluster.restUrl(), Duration.ofSeconds(10));
    jobId = job.getJobID().toHexString();
    graph = new JobSampler(client, jobId, Clock.systemUTC()).topology().graph();
    rescaler = new RestRescaler(client, jobId, Duration.ofMillis(200));
  }

  @AfterAll
  static void stop() throws Exception {
    if (job != null) {
      job.cancel().get();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static String id(String name) {
    return graph.find(name).orElseThrow().id();
  }

  private static Map<String, Integer> running() {
    Map<String, Integer> p = new TreeMap<>();
    client
        .get("/jobs/" + jobId, JobDetails.class)
        .vertices()
        .forEach(v -> p.put(v.id(), v.parallelism()));
    return p;
  }

  @Test
  @Order(1)
  void rescaleIsAppliedAndTheRestartInvalidatesAWindowAcrossIt() throws Exception {
    JobSampler sampler = new JobSampler(client, jobId, Clock.systemUTC());
    JobSample before =
        await()
            .atMost(Duration.ofSeconds(30))
            .ignoreExceptions()
            .until(() -> sampler.sample(graph), s -> s.vertices().size() == 3);
    Map<String, Integer> target = Map.of(id("Source: Orders -> Parse"), 3, id("Join -> Sink"), 4);

    RescaleOutcome outcome = Rescales.run(rescaler, target, Duration.ofSeconds(60));

    RescaleOutcome.Applied applied = assertInstanceOf(RescaleOutcome.Applied.class, outcome);
    assertTrue(applied.took().toSeconds() < 60, "took " + applied.took());
    assertEquals(3, running().get(id("Source: Orders -> Parse")), "a source's chain rescales");
    assertEquals(4, running().get(id("Join -> Sink")));
    assertEquals(
        1, running().get(id("Source: Payments")), "what was not asked keeps its parallelism");
    JobSample after =
        await()
            .atMost(Duration.ofSeconds(30))
            .ignoreExceptions()
            .until(() -> sampler.sample(graph), s -> "RUNNING".equals(s.jobState()));
    WindowResult r =
        new WindowBuilder(Duration.ofSeconds(1), Duration.ZERO)
            .build(graph, List.of(before, after));
    WindowResult.NotReady notReady = assertInstanceOf(WindowResult.NotReady.class, r);
    assertTrue(notReady.problem().invalidatesSamples(), notReady.toString());
  }

  @Test
  @Order(2)
  void tooFewSlotsIsReportedAndThePreviousRequirementsAreRestored() throws Exception {
    Map<String, Integer> before = running();
    RescaleOutcome outcome =
        Rescales.run(rescaler, Map.of(id("Join -> Sink"), 12), Duration.ofSeconds(10));

    RescaleOutcome.NotApplied unmet = assertInstanceOf(RescaleOutcome.NotApplied.class, outcome);
    assertTrue(unmet.message().contains("cluster slots: 8 total"), unmet.message());
    assertEquals(before, running(), "the job keeps running as before");
    JsonNode requirements = client.get("/jobs/" + jobId + "/resource-requirements", JsonNode.class);
    assertEquals(
        4, requirements.get(id("Join -> Sink")).get("parallelism").get("upperBound").asInt());
  }
}
