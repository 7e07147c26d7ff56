package io.ds2.experiments.replay;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.options.Ds2Options;
import io.ds2.recording.RecordingReader;
import io.ds2.whatif.WhatIf;
import io.ds2.whatif.WhatIfSummary;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Replays synthetic recordings of growing length through {@code ds2 whatif}'s engine (reader,
 * window collector, DS2 model, policy, summary) and measures samples per second and peak heap.
 */
public final class ReplayBenchmark {
  /** One measured replay. */
  public record Result(
      String length,
      int vertices,
      long samples,
      long fileBytes,
      double generateSeconds,
      double replaySeconds,
      double samplesPerSecond,
      long decisions,
      long wouldRescale,
      double peakHeapMiB,
      double heapAfterGcMiB) {}

  private ReplayBenchmark() {}

  public static Result run(Path dir, Duration length, int vertices, Duration interval)
      throws IOException, InterruptedException {
    Path file = dir.resolve("synthetic-" + length.toHours() + "h-" + vertices + "v.jsonl.gz");
    long t0 = System.nanoTime();
    long written = SyntheticRecording.write(file, vertices, length, interval);
    double generate = (System.nanoTime() - t0) / 1e9;

    System.gc();
    ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    WhatIfSummary summary = new WhatIfSummary(false);
    long t1 = System.nanoTime();
    WhatIf.Totals totals;
    try (RecordingReader reader = RecordingReader.open(file, false)) {
      totals =
          WhatIf.replay(
              reader,
              Ds2Options.defaults().with(Map.of("scale-down-delay", "30m")),
              graph -> DemandScenario.measured(),
              summary);
    }
    double replay = (System.nanoTime() - t1) / 1e9;
    long peak =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .mapToLong(p -> p.getPeakUsage().getUsed())
            .sum();
    System.gc();
    long after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    if (totals.samples() != written) {
      throw new IllegalStateException(
          "replayed " + totals.samples() + " of " + written + " samples");
    }
    long size = Files.size(file);
    Files.delete(file);
    return new Result(
        length.toHours() + "h",
        vertices,
        totals.samples(),
        size,
        generate,
        replay,
        totals.samples() / replay,
        totals.decisions(),
        summary.rescales().size(),
        peak / 1048576.0,
        after / 1048576.0);
  }
}
