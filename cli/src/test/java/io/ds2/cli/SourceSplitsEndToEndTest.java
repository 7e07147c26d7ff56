package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.commandline.ExitCodes;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.SampleJobs;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ds2 run} on a job shaped as most production jobs are: a source on 10 splits chained with
 * its parser, and a keyed count chained with the sink, both at parallelism 1, Flink at its network
 * defaults. The source's chain needs 2.6 instances: DS2's even answer 3 leaves a subtask 4 splits
 * (104 % busy); the split-exact answer is 4 (3,3,2,2 splits, 78 %). ds2 reaches it and the count's
 * oracle in at most 2 rescales, and the job then keeps up ({@link SettledRun}). The generator names
 * no splits in its metrics (as most FLIP-27 sources other than Kafka's), so its user says how many.
 */
class SourceSplitsEndToEndTest {
  @TempDir Path dir;

  @Test
  void aChainedSourceIsSizedByItsSplitsFromParallelismOne() throws Exception {
    JobSpec spec = SampleJobs.parseAndCount();
    Map<String, Integer> oracle = spec.oracle();
    assertEquals(Map.of("Source: S -> Parse", 4, "Count -> Sink: Writer", 2), oracle);
    Path recording = dir.resolve("parse-and-count.jsonl.gz");
    SettledRun.Result r =
        SettledRun.runUntilSettled(
            spec,
            4,
            Map.of(),
            "10s",
            dir,
            "--source-splits",
            "Source: S -> Parse=10",
            "--record",
            recording.toString());
    assertTrue(r.rescales() <= 2, r.toString());
    assertEquals(oracle, r.parallelism(), r.toString());

    // Replayed, the recording (which keeps the split count the run was given) sizes the source's
    // first window as the live run did: 4, by its splits.
    CliRun replay =
        CliRun.of("whatif", "--recording", recording.toString(), "--activation", "1", "-o", "json");
    assertEquals(ExitCodes.OK, replay.exitCode(), replay.err());
    JsonNode first = null;
    for (JsonNode w : new ObjectMapper().readTree(replay.out()).get("windows")) {
      first = first == null && w.has("estimate") ? w : first;
    }
    JsonNode source = null;
    for (JsonNode v : first.get("estimate").get("vertices")) {
      source = v.get("name").asText().equals("Source: S -> Parse") ? v : source;
    }
    assertEquals(4, source.get("recommendedParallelism").asInt(), source.toString());
    assertEquals("GIVEN", source.get("splitSpread").get("basis").asText(), source.toString());
  }
}
