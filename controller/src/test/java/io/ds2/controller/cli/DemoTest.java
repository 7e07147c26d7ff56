package io.ds2.controller.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.workloads.SampleJobs;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code ds2 demo} runs its in-process cluster, recommends the oracle, and stops by itself. */
class DemoTest {
  @Test
  void demoRecommendsTheOracleAndStops() throws Exception {
    CliRun run =
        CliRun.of("demo", "--duration", "30s", "--window", "8s", "--warm-up", "5s", "-o", "json");
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    assertTrue(run.err().contains("Flink REST API: http://127.0.0.1:"), run.err());
    assertTrue(run.err().contains("Stopped."), run.err());
    String[] lines = run.out().strip().split("\n");
    assertTrue(lines.length >= 1, "at least one window: " + run.out());
    JsonNode last = new ObjectMapper().readTree(lines[lines.length - 1]);
    Map<String, Integer> recommended = new HashMap<>();
    for (JsonNode v : last.get("vertices")) {
      if (!v.get("source").asBoolean()) {
        recommended.put(v.get("name").asText(), v.get("recommendedParallelism").asInt());
      }
    }
    assertEquals(SampleJobs.ordersAndPayments().oracle(), recommended);
  }
}
