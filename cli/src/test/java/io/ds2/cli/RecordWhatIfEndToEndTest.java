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
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ds2 record} and {@code ds2 whatif} on a real MiniCluster job (fan-in, at parallelism 1): a
 * recording of more than 60 s replayed at twice the rate gives the closed-form oracle at twice the
 * rate, and {@code recommend --record} and {@code whatif} on that recording agree exactly.
 */
class RecordWhatIfEndToEndTest {
  private static final JobSpec SPEC = SampleJobs.ordersAndPayments();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] WINDOWS = {
    "--window", "12s", "--warm-up", "5s", "--sample-interval", "500ms"
  };

  @TempDir Path dir;

  @Test
  void recordingReplaysToTheOracleAndAgreesWithRecommend() throws Exception {
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.startWithFastTimings(
            4,
            Map.of(),
            "a recording of about a minute must hold many refreshes for its short windows")) {
      JobClient job = cluster.submit(SPEC);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> job.getJobStatus().get().name().equals("RUNNING"));
      String url = cluster.restUrl().toString();
      Path long62s = dir.resolve("job.jsonl.gz");
      CompletableFuture<CliRun> recording =
          CompletableFuture.supplyAsync(
              () ->
                  CliRun.of(
                      "record",
                      "--flink-url",
                      url,
                      "--out",
                      long62s.toString(),
                      "--interval",
                      "1s",
                      "--duration",
                      "62s"));

      Path oneWindow = dir.resolve("window.jsonl");
      CliRun live =
          CliRun.of(
              concat(
                  new String[] {
                    "recommend", "--flink-url", url, "-o", "json", "--record", oneWindow.toString()
                  },
                  WINDOWS));
      assertEquals(ExitCodes.OK, live.exitCode(), live.err());
      CliRun replayed =
          CliRun.of(
              concat(
                  new String[] {"whatif", "--recording", oneWindow.toString(), "-o", "json"},
                  WINDOWS));
      assertEquals(ExitCodes.OK, replayed.exitCode(), replayed.err());
      JsonNode windows = JSON.readTree(replayed.out()).get("windows");
      assertEquals(1, windows.size(), replayed.out());
      assertSameEstimate(JSON.readTree(live.out()), windows.get(0).get("estimate"));

      CliRun recorded = recording.get(120, TimeUnit.SECONDS);
      assertEquals(ExitCodes.OK, recorded.exitCode(), recorded.err());
      assertTrue(recorded.out().contains("recorded 6"), recorded.out()); // 60+ polls
      job.cancel().get();

      CliRun doubled =
          CliRun.of(
              concat(
                  new String[] {
                    "whatif", "--recording", long62s.toString(), "-o", "json", "--rate-scale", "2"
                  },
                  WINDOWS));
      assertEquals(ExitCodes.OK, doubled.exitCode(), doubled.err());
      JsonNode root = JSON.readTree(doubled.out());
      assertTrue(root.get("windows").size() >= 3, doubled.out());
      for (JsonNode w : root.get("windows")) {
        assertEquals("decision", w.get("type").asText(), w.toString());
        assertEquals(SPEC.oracle(2.0), JsonEstimates.recommended(w.get("vertices"), "recommended"));
      }
      assertEquals(SPEC.oracle(2.0), JsonEstimates.recommended(root.get("plan"), "recommended"));
      assertEquals(1, root.get("rescales").size(), doubled.out());
      assertEquals(0, root.get("totals").get("skippedLines").asInt());
    }
  }

  /** The live window's estimate and the replayed one: same vertices, numbers, recommendations. */
  private static void assertSameEstimate(JsonNode live, JsonNode replayed) {
    assertEquals(live.get("vertices").size(), replayed.get("vertices").size());
    for (int i = 0; i < live.get("vertices").size(); i++) {
      JsonNode a = live.get("vertices").get(i);
      JsonNode b = replayed.get("vertices").get(i);
      assertEquals(a.get("name"), b.get("name"));
      assertEquals(a.get("recommendedParallelism"), b.get("recommendedParallelism"), a.toString());
      assertClose(a.get("trueProcessingRatePerInstance"), b.get("trueProcessingRatePerInstance"));
      assertClose(a.get("targetInputRate"), b.get("targetInputRate"));
      if (a.has("demand")) {
        assertClose(a.get("demand").get("targetRate"), b.get("demand").get("targetRate"));
      }
    }
    Map<String, Integer> oracle = SPEC.oracle();
    assertEquals(oracle, JsonEstimates.recommended(live.get("vertices"), "recommendedParallelism"));
  }

  // Sample times are recorded in milliseconds; everything else is the same arithmetic.
  private static void assertClose(JsonNode a, JsonNode b) {
    if (a.isNull() || b.isNull()) {
      assertEquals(a, b);
      return;
    }
    assertEquals(a.asDouble(), b.asDouble(), Math.abs(a.asDouble()) * 1e-6 + 1e-9);
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = new String[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
