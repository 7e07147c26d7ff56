package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.experiments.bench.Saso;
import io.ds2.experiments.bench.SuiteReport;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlinkDefaultsSectionTest {
  // Stored runs of the tuned bench: the chained sub-linear job held at its oracle with
  // CAPACITY_SHORTFALL windows, the chained fan-in showed none (experiments/RESULTS.md).
  private static final Path KAFKA_SUITE = Path.of("results", "kafka-suite");

  @Test
  void theShortfallHoldsAreCountedFromTheRunsRecording() throws Exception {
    List<Saso.Result> runs = SuiteReport.read(KAFKA_SUITE.resolve("runs.json"));
    Saso.Result subLinear = run(runs, "sub-linear");
    Saso.Result fanIn = run(runs, "fanin-step-up");
    long held = FlinkDefaultsSection.shortfallHolds(KAFKA_SUITE, subLinear).orElseThrow();
    assertTrue(held > 0 && held <= subLinear.decisions(), held + " of " + subLinear.decisions());
    assertEquals(0L, FlinkDefaultsSection.shortfallHolds(KAFKA_SUITE, fanIn).orElseThrow());
  }

  private static Saso.Result run(List<Saso.Result> runs, String scenario) {
    return runs.stream()
        .filter(r -> r.scenario().equals(scenario) && r.controller().equals("ds2"))
        .findFirst()
        .orElseThrow();
  }
}
