package io.ds2.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.commandline.ExitCodes;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.SampleJobs;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ds2 recommend} against a real Flink MiniCluster running an under-provisioned job with
 * fan-in: every vertex's recommendation equals the closed-form oracle, with the demand given and
 * with the demand inferred from the sources' {@code pendingRecords}.
 */
class RecommendEndToEndTest {
  private static final JobSpec SPEC = SampleJobs.ordersAndPayments();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static LocalFlinkCluster cluster;
  private static JobClient job;

  @BeforeAll
  static void startJob() throws Exception {
    cluster =
        LocalFlinkCluster.startWithFastTimings(
            4, Map.of(), "recommend's 12 s windows must see many metric refreshes: 1 s, not 10 s");
    job = cluster.submit(SPEC);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> job.getJobStatus().get().name().equals("RUNNING"));
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

  private static CliRun recommend(String... extra) {
    String[] base = {
      "recommend",
      "--flink-url",
      cluster.restUrl().toString(),
      "--window",
      "12s",
      "--warm-up",
      "5s",
      "--sample-interval",
      "500ms"
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return CliRun.of(args);
  }

  private static void assertOracle(CliRun run) throws Exception {
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    JsonNode root = JSON.readTree(run.out());
    assertEquals(job.getJobID().toHexString(), root.get("jobId").asText());
    Map<String, Integer> recommended = new HashMap<>();
    for (JsonNode v : root.get("vertices")) {
      assertTrue(v.get("determined").asBoolean(), v.toString());
      recommended.put(v.get("name").asText(), v.get("recommendedParallelism").asInt());
      assertEquals(1, v.get("currentParallelism").asInt());
      if (!v.get("source").asBoolean()) {
        assertTrue(v.get("trueProcessingRatePerInstance").asDouble() > 0);
      }
    }
    assertEquals(SPEC.oracle(), recommended, run.out());
  }

  @Test
  void givenSourceRates() throws Exception {
    assertOracle(
        recommend(
            "-o",
            "json",
            "--source-rate",
            "Source: Orders -> Parse=400",
            "--source-rate",
            "Source: Payments=300"));
  }

  @Test
  void demandInferredFromPendingRecords() throws Exception {
    CliRun run = recommend("-o", "json");
    assertOracle(run);
    JsonNode orders = null;
    for (JsonNode v : JSON.readTree(run.out()).get("vertices")) {
      if (v.get("name").asText().equals("Source: Orders -> Parse")) {
        orders = v;
      }
    }
    assertEquals("BACKLOG", orders.get("demand").get("basis").asText());
    // 400 records/s arrive: the demand is what the source reads (Parse, chained to it, emits two
    // records a record: 800/s reach Join).
    assertEquals(400, orders.get("demand").get("targetRate").asDouble(), 400 * 0.01);
  }

  @Test
  void tableNamesEveryVertex() {
    CliRun run = recommend("-o", "table");
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    for (String name :
        new String[] {"Source: Orders -> Parse", "Source: Payments", "Join -> Sink"}) {
      assertTrue(run.out().contains("\n" + name + " "), name + " in\n" + run.out());
    }
    assertTrue(run.out().contains("RECOMMENDED"), run.out());
  }
}
