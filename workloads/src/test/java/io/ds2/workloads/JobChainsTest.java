package io.ds2.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ds2.workloads.JobSpec.OperatorSpec;
import io.ds2.workloads.JobSpec.SourceSpec;
import io.ds2.workloads.source.RateSchedule;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The vertices Flink makes of a spec with chaining on, and their oracles. */
class JobChainsTest {
  @Test
  void aSourceChainsWithItsParserAndAKeyedCountWithItsSink() {
    JobSpec job = SampleJobs.parseAndCount();
    assertEquals(
        List.of("Source: S -> Parse", "Count -> Sink: Writer"),
        job.chains().stream().map(JobChains.Chain::vertexName).toList());
    // 10 splits: 3 subtasks would leave one 4 splits (1.04 busy); 4 leave at most 3 (0.78).
    assertEquals(Map.of("Source: S -> Parse", 4, "Count -> Sink: Writer", 2), job.oracle());
  }

  @Test
  void aSourceChainNeverNeedsMoreThanItsSplits() {
    JobSpec job =
        new JobSpec(
            "few-partitions",
            List.of(new SourceSpec("K", RateSchedule.constant(600), 1, 4)),
            List.of(new OperatorSpec("Parse", List.of("K"), 10, 1.0, 1, false, 0)));
    // 6 instances' worth on 4 splits: no parallelism keeps up, and 4 is the most that reads.
    assertEquals(Map.of("Source: K -> Parse", 4), job.oracle());
  }

  @Test
  void chainsFollowFlinksRulesAndAJobThatMustNotChainSaysWhy() {
    JobSpec job = SampleJobs.ordersAndPayments();
    assertEquals(
        Map.of("Source: Orders -> Parse", 3, "Source: Payments", 1, "Join -> Sink", 4),
        job.oracle(1));
    assertEquals("Join -> Sink", job.vertexOf("Sink"));
    // Parse started at another parallelism than its source does not chain (REBALANCE).
    assertEquals(
        List.of("Source: Orders", "Source: Payments", "Parse", "Join -> Sink"),
        job.withParallelism(Map.of("Parse", 3)).chains().stream()
            .map(JobChains.Chain::vertexName)
            .toList());
    JobSpec apart = job.unchained("every operator measured apart");
    assertEquals(5, apart.chains().size());
    assertThrows(IllegalArgumentException.class, () -> job.unchained(" "));
  }
}
