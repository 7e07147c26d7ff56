package io.ds2.controller.cli;

import io.ds2.controller.render.EstimateJson;
import io.ds2.controller.render.EstimateTable;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.FlinkRestException;
import io.ds2.flink.JobSampler;
import io.ds2.flink.JobTopology;
import io.ds2.flink.WindowCollector;
import io.ds2.model.estimate.Estimate;
import io.ds2.model.options.Ds2Options;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.SampleJobs;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.flink.core.execution.JobClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Starts an in-process Flink cluster, runs an under-provisioned sample job with known per-record
 * costs, and prints a recommendation after every window, next to the closed-form answer.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run an in-process Flink cluster with a sample job that has a known bottleneck, and show",
      "live recommendations as windows fill. Ctrl-C stops cleanly."
    })
final class DemoCommand implements Callable<Integer>, ScalingFlags.Taker {
  // The demo runs on Flink's 1 s metric refresh, so shorter windows are accurate.
  private static final Map<String, String> DEMO_DEFAULTS =
      Map.of(
          Ds2Options.WINDOW, "15s", Ds2Options.WARM_UP, "10s", Ds2Options.SAMPLE_INTERVAL, "500ms");

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      description = "Stop after this long. Default: run until Ctrl-C.")
  String duration;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      description = "table, or json (one JSON object per window). Default: table.")
  RecommendCommand.OutputFormat output = RecommendCommand.OutputFormat.table;

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  boolean verbose;

  @Override
  public Integer call() throws Exception {
    Ds2Options options = ScalingFlags.read(spec, DEMO_DEFAULTS);
    Optional<Duration> runFor =
        Optional.ofNullable(duration).map(d -> RecommendCommand.parseDuration("--duration", d));
    PrintWriter out = spec.commandLine().getOut();
    // With -o json stdout carries only JSON lines; the banner goes to stderr.
    PrintWriter banner =
        output == RecommendCommand.OutputFormat.json ? spec.commandLine().getErr() : out;
    JobSpec job = SampleJobs.ordersAndPayments();
    banner.println("Starting an in-process Flink cluster (2 TaskManagers x 4 slots)...");
    banner.flush();
    CountDownLatch stopped = new CountDownLatch(1);
    Thread main = Thread.currentThread();
    try (LocalFlinkCluster cluster = LocalFlinkCluster.start(4)) {
      Thread hook =
          new Thread(
              () -> {
                main.interrupt();
                awaitQuietly(stopped);
              },
              "ds2-demo-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      JobClient client = cluster.submit(job);
      String jobId = client.getJobID().toHexString();
      banner.printf(
          "Flink REST API: %s  (web UI is not bundled; the REST API is)%n"
              + "Sample job '%s' (%s), every operator at parallelism 1.%n"
              + "Expected answer (closed form): %s%n"
              + "Try from another terminal: bin/ds2 recommend --flink-url %s%n%n",
          cluster.restUrl(), job.name(), jobId, job.oracle(), cluster.restUrl());
      banner.flush();
      try {
        loop(cluster, jobId, options, runFor, out);
      } catch (InterruptedException e) {
        banner.println("\nStopping...");
      } finally {
        Thread.interrupted(); // clear, so closing the cluster is not cut short
        cancelQuietly(client);
        if (runFor.isPresent()) {
          Runtime.getRuntime().removeShutdownHook(hook);
        }
      }
    } finally {
      stopped.countDown();
    }
    banner.println("Stopped.");
    banner.flush();
    return ExitCodes.OK;
  }

  private void loop(
      LocalFlinkCluster cluster,
      String jobId,
      Ds2Options options,
      Optional<Duration> runFor,
      PrintWriter out)
      throws InterruptedException {
    Instant end = runFor.map(d -> Instant.now().plus(d)).orElse(Instant.MAX);
    FlinkRestClient rest = new FlinkRestClient(cluster.restUrl(), Duration.ofSeconds(10));
    JobSampler sampler = new JobSampler(rest, jobId, Clock.systemUTC());
    JobTopology topology = awaitTopology(sampler, end);
    StderrProgress progress = new StderrProgress(spec.commandLine().getErr());
    WindowCollector collector = WindowCollector.live(sampler, options);
    while (Instant.now().plus(options.window()).isBefore(end)) {
      var window = collector.collect(topology.graph(), WindowCollector.maxWait(options), progress);
      progress.done();
      Estimate estimate = RecommendCommand.estimate(topology.graph(), window, Map.of(), options);
      if (output == RecommendCommand.OutputFormat.json) {
        out.println(EstimateJson.render(topology, estimate));
      } else {
        out.print(EstimateTable.render(topology, estimate));
        out.println();
      }
      out.flush();
    }
  }

  private static JobTopology awaitTopology(JobSampler sampler, Instant end)
      throws InterruptedException {
    while (true) {
      try {
        return sampler.topology();
      } catch (FlinkRestException e) {
        if (Instant.now().isAfter(end)) {
          throw e;
        }
        Thread.sleep(500);
      }
    }
  }

  private static void cancelQuietly(JobClient client) {
    try {
      client.cancel().get();
    } catch (Exception e) {
      // The cluster is closed next; a job that could not be cancelled dies with it.
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
