package io.ds2.experiments;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.experiments.bench.Saso;
import io.ds2.experiments.bench.Scenario;
import io.ds2.experiments.bench.ScenarioRun;
import io.ds2.experiments.bench.SuiteReport;
import io.ds2.experiments.bench.controllers.Controllers;
import io.ds2.experiments.replay.ReplayBenchmark;
import io.ds2.experiments.scale.DecisionTimeBenchmark;
import io.ds2.experiments.scale.FleetBenchmark;
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
    subcommands = {
      Bench.Replay.class,
      Bench.Run.class,
      SuiteCommand.class,
      Bench.Decide.class,
      Bench.Fleet.class,
      SoakCommand.class,
      OperatorSoakCommand.class,
      Bench.Calibrate.class,
      Bench.Rescore.class,
      Bench.Results.class
    },
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

  /** Writes a benchmark's results with where and how they were measured; nothing if no file. */
  static void writeResults(Path out, String benchmark, Object results, String options)
      throws java.io.IOException {
    if (out == null) {
      return;
    }
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = mapper.createObjectNode();
    root.put("benchmark", benchmark);
    root.put("measuredAt", Instant.now().toString());
    // The commit bin/ds2-bench built the jar from ("-dirty" with uncommitted changes).
    root.put("commit", System.getProperty("ds2.commit", "unknown"));
    root.put("java", System.getProperty("java.version"));
    root.put("maxHeapMiB", Runtime.getRuntime().maxMemory() / 1048576);
    root.put("cores", Runtime.getRuntime().availableProcessors());
    if (options != null) {
      root.put("options", options);
    }
    root.set("results", mapper.valueToTree(results));
    Files.writeString(out, mapper.writeValueAsString(root) + "\n");
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
      writeResults(out, "replay", results, null);
      return 0;
    }
  }

  @Command(
      name = "scenario",
      mixinStandardHelpOptions = true,
      description = "Run one scenario under one controller on a fresh MiniCluster.")
  static final class Run implements Callable<Integer> {
    @Option(names = "--scenario", required = true, description = "Scenario name.")
    String scenario;

    @Option(names = "--controller", required = true, description = "Controller name.")
    String controller;

    @Option(names = "--out", description = "Directory for recordings, CSV, plots. Default: .")
    Path out = Path.of(".");

    @Option(
        names = "--feed",
        description = "synthetic or kafka. Default: synthetic.",
        defaultValue = "synthetic")
    String feed;

    @Option(
        names = "--cluster",
        description = "flink-defaults or tuned (see suite --help). Default: flink-defaults.",
        defaultValue = "flink-defaults")
    String cluster;

    @Override
    public Integer call() throws Exception {
      Files.createDirectories(out);
      boolean kafka = feed.equals("kafka");
      var r =
          ScenarioRun.run(
              kafka ? Scenario.kafkaByName(scenario) : Scenario.byName(scenario),
              Controllers.byName(controller),
              out,
              1,
              kafka ? ScenarioRun.Feed.KAFKA : ScenarioRun.Feed.SYNTHETIC,
              io.ds2.experiments.bench.ClusterSettings.of(cluster));
      System.out.println(SuiteReport.row(r));
      return 0;
    }
  }

  @Command(
      name = "decide",
      mixinStandardHelpOptions = true,
      description =
          "Time one decision (window from raw samples, DS2 estimate, policy) for 10, 100, 1,000"
              + " vertices at max parallelism 128, and 1,000 at 32,768; and what --forecast act"
              + " adds to it, per decision and per refit of every source's model.")
  static final class Decide implements Callable<Integer> {
    @Option(
        names = "--iterations",
        description = "Timed decisions per size (after as many to warm up). Default: 2000.")
    int iterations = 2000;

    @Option(names = "--out", description = "Write the results as JSON here.")
    Path out;

    @Override
    public Integer call() throws Exception {
      List<DecisionTimeBenchmark.Result> results = new ArrayList<>();
      System.out.printf(
          "%-9s %8s %12s %14s %12s %12s %12s %10s %12s %12s %12s %12s%n",
          "VERTICES",
          "MAX PAR",
          "WINDOW us",
          "ESTIMATE us",
          "DECIDE us",
          "TOTAL us",
          "P99 us",
          "ALLOC KiB",
          "FC RAISE us",
          "FC HOLD us",
          "STEP ms",
          "WEIGHTS ms");
      for (int[] size :
          List.of(
              new int[] {10, 128},
              new int[] {100, 128},
              new int[] {1000, 128},
              new int[] {1000, 32768})) {
        var r = DecisionTimeBenchmark.run(size[0], size[1], iterations);
        results.add(r);
        System.out.printf(
            Locale.ROOT,
            "%-9d %8d %12.1f %14.1f %12.1f %12.1f %12.1f %10.0f %12.1f %12.1f %12.1f %12.1f%n",
            size[0],
            size[1],
            r.windowMedianMicros(),
            r.estimateMedianMicros(),
            r.decideMedianMicros(),
            r.totalMedianMicros(),
            r.totalP99Micros(),
            r.allocatedKiBPerDecision(),
            r.forecastRaisingMedianMicros(),
            r.forecastHoldingMedianMicros(),
            r.forecastStepMedianMicros() / 1000,
            r.forecastChooseWeightsMedianMicros() / 1000);
      }
      writeResults(out, "decide", results, null);
      return 0;
    }
  }

  @Command(
      name = "rescore",
      mixinStandardHelpOptions = true,
      description =
          "Recompute every stored suite run from its recording against today's oracles and"
              + " keeps-up test (the live decision times are kept); rewrite runs.json.")
  static final class Rescore implements Callable<Integer> {
    @Option(
        names = "--out",
        description = "Default: experiments/results/suite and experiments/results/kafka-suite.")
    Path out;

    @Override
    public Integer call() throws Exception {
      if (out != null) {
        String name = out.getFileName().toString();
        // The long runs and the diurnal ones are Kafka-fed too, named among its scenarios.
        boolean kafka =
            name.startsWith("kafka-") || name.equals("long-runs") || name.startsWith("diurnal");
        if (!Files.exists(out.resolve("runs.json"))) {
          // Runs made one at a time: scored from their recordings.
          SuiteReport.write(
              out.resolve("runs.json"), SuiteReport.fromRecordings(out, kafka, Rescore::targetOf));
        }
        rescore(out, kafka);
        return 0;
      }
      rescore(Path.of("experiments/results/suite"), false);
      Path kafka = Path.of("experiments/results/kafka-suite");
      if (Files.exists(kafka.resolve("runs.json"))) {
        rescore(kafka, true);
      }
      return 0;
    }

    /** The target utilization of the controller named so; 0 for one no longer known. */
    static double targetOf(String controller) {
      try {
        return Controllers.byName(controller).targetUtilization();
      } catch (IllegalArgumentException e) {
        return 0;
      }
    }

    /** {@code kafka}: the runs of the Kafka-fed suite, whose scenarios are stretched. */
    private static void rescore(Path out, boolean kafka) throws Exception {
      List<Saso.Result> rescored = new ArrayList<>();
      for (Saso.Result old : SuiteReport.read(out.resolve("runs.json"))) {
        Saso.Result r =
            Saso.rescore(
                kafka ? Scenario.kafkaByName(old.scenario()) : Scenario.byName(old.scenario()),
                old,
                out,
                targetOf(old.controller()));
        System.out.println(SuiteReport.row(r));
        rescored.add(r);
      }
      SuiteReport.write(out.resolve("runs.json"), rescored);
    }
  }

  @Command(
      name = "results",
      mixinStandardHelpOptions = true,
      description = "Print experiments/RESULTS.md rendered from experiments/results/.")
  static final class Results implements Callable<Integer> {
    @Option(names = "--results", description = "Default: experiments/results.")
    Path results = Path.of("experiments/results");

    @Override
    public Integer call() throws Exception {
      System.out.print(ResultsPage.render(results));
      return 0;
    }
  }

  @Command(
      name = "fleet",
      mixinStandardHelpOptions = true,
      description =
          "One ds2 operator managing 1, 100 and 1,000 FlinkDeployments through its own path (an"
              + " in-memory API server, a simulated Flink REST endpoint fed by fluid models).")
  static final class Fleet implements Callable<Integer> {
    @Option(names = "--jobs", split = ",", description = "Default: 1,100,1000.")
    List<Integer> jobs = List.of(1, 100, 1000);

    @Option(names = "--seconds", description = "Length of each run. Default: 60.")
    int seconds = 60;

    @Option(names = "--out", description = "Write the results as JSON here.")
    Path out;

    @Override
    public Integer call() throws Exception {
      List<FleetBenchmark.Result> results = new ArrayList<>();
      System.out.printf(
          "%-6s %10s %10s %10s %10s %9s %9s %8s %11s %9s %10s %9s %8s %9s%n",
          "JOBS",
          "DECISIONS",
          "LOOP p50 s",
          "LOOP p99 s",
          "STEADY p99",
          "RESCALES",
          "AT ORACLE",
          "RETRIES",
          "REST CALL/s",
          "CPU cores",
          "PEAK HEAP",
          "AFTER GC",
          "THREADS",
          "SCHEDULER");
      for (int n : jobs) {
        var r = FleetBenchmark.run(n, java.time.Duration.ofSeconds(seconds));
        results.add(r);
        System.out.printf(
            Locale.ROOT,
            "%-6d %10d %10.1f %10.1f %10.1f %9d %9d %8d %11.0f %9.2f %9.0fM %8.0fM %8d %9d%n",
            n,
            r.decisions(),
            r.loopMedianSeconds(),
            r.loopP99Seconds(),
            r.steadyLoopP99Seconds(),
            r.rescales(),
            r.jobsAtOracle(),
            r.retriedFailures(),
            r.restCallsPerSecond(),
            r.cpuCoresUsed(),
            r.peakHeapMiB(),
            r.heapAfterGcMiB(),
            r.threads(),
            r.schedulerThreads());
      }
      writeResults(out, "fleet", results, FleetBenchmark.OPTIONS.toString());
      return 0;
    }
  }

  @Command(
      name = "calibrate",
      mixinStandardHelpOptions = true,
      description = "Check the controlled cost on this machine: 1 ms per record at 500 records/s.")
  static final class Calibrate implements Callable<Integer> {
    @Option(names = "--out", description = "Write the result as JSON here.")
    Path out;

    @Override
    public Integer call() throws Exception {
      var r = io.ds2.experiments.bench.Calibration.run();
      System.out.printf(
          Locale.ROOT,
          "cost 1 ms/record at %.1f records/s: busy %.1f ms/s (expected 500), true rate %.1f records/s"
              + " per instance (expected 1000)%n",
          r.inputRate(),
          r.busyMsPerSecond(),
          r.trueRatePerInstance());
      writeResults(out, "calibration", List.of(r), null);
      return 0;
    }
  }
}
