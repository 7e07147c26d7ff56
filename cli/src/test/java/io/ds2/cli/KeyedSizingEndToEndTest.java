package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.JobSpec.OperatorSpec;
import io.ds2.workloads.JobSpec.SourceSpec;
import io.ds2.workloads.KeyDistribution;
import io.ds2.workloads.KeyedOracle;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.source.RateSchedule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ds2 run} on keyed jobs whose even-keys answer leaves a subtask saturated: from parallelism
 * 1 it reaches a configuration that keeps up — over 60 s (counter deltas) the source's backlog does
 * not grow and no subtask is 98 % busy, unless the backlog built up before shrinks meanwhile (then
 * busy subtasks are catching up, which proves they keep up) — in few rescales, and no more than one
 * instance above the smallest parallelism that keeps up under Flink's key-group assignment.
 */
class KeyedSizingEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration SETTLE = Duration.ofMinutes(8);
  private static final Duration MEASURE = Duration.ofSeconds(60);

  @TempDir Path dir;

  /**
   * Natural ids 1..10,000 with Zipf popularity (exponent 0.8), max parallelism 128, load 6.5: even
   * keys say 7 (its busiest subtask needs 1.14 instances), a divisor of 128 says 8 (1.08); the
   * smallest that keeps up is 9 (0.85).
   */
  @Test
  void zipfKeysFromParallelismOne() throws Exception {
    KeyDistribution keys = new KeyDistribution.Zipf(10_000, 0.8);
    JobSpec spec =
        new JobSpec(
            "zipf",
            List.of(new SourceSpec("Events", RateSchedule.constant(650), 1)),
            List.of(new OperatorSpec("Work", List.of("Events"), 10, 0, 1, true, 0, keys)));
    double[] shares = keys.keyGroupShares(128);
    assertTrue(6.5 * KeyedOracle.busiestShare(shares, 7) >= 1, "even keys' 7 saturates");
    assertTrue(6.5 * KeyedOracle.busiestShare(shares, 8) >= 1, "the divisor 8 saturates");
    int smallest = spec.oracle().get("Work");
    assertEquals(9, smallest);
    // Small buffers: from parallelism 1 Work is 6.5 times overloaded, and at Flink's default
    // buffers the overflow of its small records would sit in them for minutes with the source
    // showing no backlog, where this test is about sizing the keyed vertex, not finding the demand.
    SettledRun.Result r =
        SettledRun.runUntilSettled(spec, 16, LocalFlinkCluster.SMALL_NETWORK_BUFFERS, "10s", dir);
    assertTrue(r.rescales() <= 3, r.toString());
    assertTrue(r.parallelism().get("Work") <= smallest + 1, r.toString());
  }

  /**
   * The DS2/Dhalion word count (FlatMap emits 20 words a sentence, chained to the source on 12
   * splits; keyed Count at 2 ms a word, keys 0..4095 in turn, max parallelism 128) at 480
   * sentences/s: the source's chain 9.6, which 10 subtasks would leave one 2 splits (1.6
   * instances): 12; Count 19.2, which even keys put at 20 (its busiest subtask then needs 1.21
   * instances); 25 keeps up (0.95). The generator names no splits in its metrics (as most FLIP-27
   * sources other than Kafka's), so its user says how many: --source-splits.
   */
  @Test
  void wordCountFromParallelismOne() throws Exception {
    JobSpec spec =
        new JobSpec(
            "wordcount",
            List.of(new SourceSpec("Sentences", RateSchedule.constant(480), 1)),
            List.of(
                new OperatorSpec("FlatMap", List.of("Sentences"), 20, 20, 1, false, 0),
                new OperatorSpec("Count", List.of("FlatMap"), 2, 0, 1, true, 0)));
    Map<String, Integer> oracle = spec.oracle();
    assertEquals(Map.of("Source: Sentences -> FlatMap", 12, "Count", 25), oracle);
    SettledRun.Result r =
        SettledRun.runUntilSettled(
            spec, 40, Map.of(), "30s", dir, "--source-splits", "Source: Sentences -> FlatMap=12");
    assertEquals(12, r.parallelism().get("Source: Sentences -> FlatMap"), r.toString());
    assertTrue(r.rescales() <= 2, r.toString());
    assertTrue(r.parallelism().get("Count") <= oracle.get("Count") + 1, r.toString());
  }
}
