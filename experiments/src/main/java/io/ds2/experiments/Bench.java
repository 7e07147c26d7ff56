package io.ds2.experiments;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.experiments.replay.ReplayBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/ds2-bench}: the benchmarks behind experiments/RESULTS.md. */
@Command(
    name = "ds2-bench",
    mixinStandardHelpOptions = true,
    subcommands = {Bench.Replay.class},
    description = "Benchmarks of ds2; each writes its data as JSON for experiments/results/.")
public final class Bench implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a benchmark is required");
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new Bench()).execute(args));
  }

  @Command(
      name = "replay",
      mixinStandardHelpOptions = true,
      description =
          "Replay synthetic recordings (one sample per --interval, --vertices vertices) of 1 h, 6 h"
              + " and 24 h through the what-if engine; report samples/s and peak heap.")
  static final class Replay implements Callable<Integer> {
    @Option(names = "--vertices", description = "Vertices of the job. Default: 50.")
    int vertices = 50;

    @Option(names = "--interval-seconds", description = "Seconds between samples. Default: 10.")
    int interval = 10;

    @Option(names = "--hours", split = ",", description = "Lengths. Default: 1,6,24.")
    List<Integer> hours = List.of(1, 6, 24);

    @Option(names = "--out", description = "Write the results as JSON here.")
    Path out;

    @Option(names = "--dir", description = "Where the recordings are written. Default: /tmp.")
    Path dir = Path.of(System.getProperty("java.io.tmpdir"));

    @Override
    public Integer call() throws Exception {
      List<ReplayBenchmark.Result> results = new ArrayList<>();
      System.out.printf(
          "%-6s %8s %9s %10s %9s %12s %9s %12s %11s%n",
          "LENGTH",
          "SAMPLES",
          "FILE MiB",
          "REPLAY s",
          "SAMPLES/s",
          "DECISIONS",
          "RESCALES",
          "PEAK HEAP MiB",
          "AFTER GC");
      for (int h : hours) {
        ReplayBenchmark.Result r =
            ReplayBenchmark.run(dir, Duration.ofHours(h), vertices, Duration.ofSeconds(interval));
        results.add(r);
        System.out.printf(
            Locale.ROOT,
            "%-6s %8d %9.1f %10.2f %9.0f %12d %9d %12.1f %11.1f%n",
            r.length(),
            r.samples(),
            r.fileBytes() / 1048576.0,
            r.replaySeconds(),
            r.samplesPerSecond(),
            r.decisions(),
            r.wouldRescale(),
            r.peakHeapMiB(),
            r.heapAfterGcMiB());
      }
      if (out != null) {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("benchmark", "replay");
        root.put("measuredAt", Instant.now().toString());
        root.put("java", System.getProperty("java.version"));
        root.put("maxHeapMiB", Runtime.getRuntime().maxMemory() / 1048576);
        root.put("cores", Runtime.getRuntime().availableProcessors());
        root.set("results", mapper.valueToTree(results));
        Files.writeString(out, mapper.writeValueAsString(root) + "\n");
      }
      return 0;
    }
  }
}
