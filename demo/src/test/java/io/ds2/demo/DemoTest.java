package io.ds2.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.commandline.ExitCodes;
import org.junit.jupiter.api.Test;

/**
 * {@code ds2 demo} scales its under-provisioned job to the closed-form answer, follows the doubled
 * rate, and stops by itself with a summary.
 */
class DemoTest {
  @Test
  void demoReachesTheOracleTwiceAndSummarizes() throws Exception {
    CliRun run = CliRun.of("demo", "--window", "6s", "--warm-up", "4s", "-o", "json");
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    assertTrue(run.err().lines().noneMatch(l -> l.contains("Unknown")), run.err());
    assertTrue(run.err().contains("Flink REST API: http://127.0.0.1:"), run.err());
    assertTrue(run.err().contains("Doubling the source rate"), run.err());
    assertTrue(run.err().contains("Stopped."), run.err());
    String[] lines = run.out().strip().split("\n");
    JsonNode summary = new ObjectMapper().readTree(lines[lines.length - 1]);
    assertEquals("summary", summary.get("type").asText());
    assertEquals(2, summary.get("phases").size());
    for (JsonNode phase : summary.get("phases")) {
      assertEquals(phase.get("neededParallelism"), phase.get("finalParallelism"), phase.toString());
      assertTrue(phase.get("rescaleSteps").asInt() <= 2, phase.toString());
      assertEquals(phase.get("rescaleSteps").asInt(), phase.get("rescales").size());
      assertTrue(phase.get("secondsToSettle").isNumber(), phase.toString());
    }
    assertEquals("decision", new ObjectMapper().readTree(lines[0]).get("type").asText());
  }
}
