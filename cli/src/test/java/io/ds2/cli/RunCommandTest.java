package io.ds2.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.commandline.ExitCodes;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.SampleJobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ds2 run} on a cluster whose scheduler cannot rescale through REST: one clear message, then
 * advisor mode (decisions only, no further rescale attempts), every step in the decision log.
 */
class RunCommandTest {
  @TempDir Path dir;

  @Test
  void nonAdaptiveSchedulerFallsBackToAdvisorMode() throws Exception {
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.startWithFastTimings(
            4,
            Map.of("jobmanager.scheduler", "default"),
            "the fallback is checked over several decisions on short windows, which need a 1 s"
                + " refresh")) {
      JobClient job = cluster.submit(SampleJobs.ordersAndPayments());
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> job.getJobStatus().get().name().equals("RUNNING"));
      Path log = dir.resolve("decisions.jsonl");
      CliRun run =
          CliRun.of(
              "run",
              "--flink-url",
              cluster.restUrl().toString(),
              "--max-decisions",
              "2",
              "--decision-log",
              log.toString(),
              "--window",
              "6s",
              "--warm-up",
              "4s",
              "--sample-interval",
              "500ms",
              "--activation",
              "1");
      job.cancel().get();

      assertEquals(ExitCodes.OK, run.exitCode(), run.err());
      assertTrue(run.out().contains("is jobmanager.scheduler set to adaptive?"), run.out());
      assertTrue(run.out().contains("RESCALE (advisor mode: not applied)"), run.out());
      List<JsonNode> lines = new ArrayList<>();
      for (String line : Files.readAllLines(log)) {
        lines.add(new ObjectMapper().readTree(line));
      }
      List<String> types = lines.stream().map(l -> l.get("type").asText()).toList();
      assertEquals(List.of("decision", "rescale", "problem", "decision"), types);
      assertEquals("act", lines.get(0).get("mode").asText());
      assertEquals("rescale", lines.get(0).get("action").get("type").asText());
      assertEquals("unsupported", lines.get(1).get("outcome").asText());
      assertEquals("advisor", lines.get(3).get("mode").asText());
      JsonNode vertex = lines.get(0).get("vertices").get(2);
      assertTrue(vertex.has("recommended") && vertex.has("target") && vertex.has("reasons"));
      // Source: Orders -> Parse, Source: Payments, Join -> Sink: Flink chains the sample job.
      assertEquals(3, lines.get(0).get("estimate").get("vertices").size());
    }
  }

  @Test
  void badMaxDecisionsIsUsage() {
    CliRun r = CliRun.of("run", "--flink-url", "http://127.0.0.1:1", "--max-decisions", "0");
    assertEquals(ExitCodes.USAGE, r.exitCode());
    assertEquals("ds2 run: --max-decisions must be at least 1, was 0", r.errLines()[0]);
  }
}
