package io.ds2.demo;

import io.ds2.cli.OutputFormat;
import io.ds2.cli.RecordOption;
import io.ds2.commandline.DurationFlag;
import io.ds2.commandline.ExitCodes;
import io.ds2.commandline.GracefulStop;
import io.ds2.commandline.ScalingFlags;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.SourceFailure;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobSampler;
import io.ds2.loop.ControlLoop;
import io.ds2.loop.EventSink;
import io.ds2.loop.RestLoops;
import io.ds2.recording.LiveRecording;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.SampleJobs;
import io.ds2.workloads.source.RateControl;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.core.execution.JobClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Starts an in-process Flink cluster, runs an under-provisioned sample job with known per-record
 * costs, and lets the controller scale it: first to the base rate, then, once settled, to twice the
 * rate. Ends with a summary (steps, time to settle, final vs needed, rescale times).
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    header = "Watch ds2 scale a sample job on an in-process Flink cluster.",
    description = {
      "Runs an in-process Flink cluster with a sample job started under-provisioned; the"
          + " controller scales it, then follows a doubling of the source rate, and prints a"
          + " summary.",
      "Ctrl-C stops cleanly, with the summary so far."
    })
public final class DemoCommand implements Callable<Integer>, ScalingFlags.Taker {
  @Override
  public Map<String, String> defaults() {
    return DEMO_DEFAULTS;
  }

  /**
   * Why the demo's cluster is off Flink's default timings (said when it starts): a scale-up and the
   * doubling followed within a minute and a half need windows of seconds, which a 10 s refresh
   * would leave with one reading or none.
   */
  private static final String FAST_BECAUSE =
      "metrics refreshed every second and 1 s rescale cool-downs, not Flink's 10 s and 30 s,"
          + " so that the demo takes a minute and a half";

  // The demo cluster refreshes metrics every second, so short windows are accurate.
  private static final Map<String, String> DEMO_DEFAULTS =
      Map.of(
          Ds2Options.WINDOW, "10s",
          Ds2Options.WARM_UP, "5s",
          Ds2Options.SAMPLE_INTERVAL, "500ms",
          Ds2Options.ACTIVATION, "1",
          Ds2Options.SCALE_DOWN_DELAY, "30s",
          Ds2Options.RESCALE_TIMEOUT, "60s");
  private static final String RATE_CONTROL = "ds2-demo";

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      description = "Stop after this long even if not settled. Default: 10m.")
  String duration = "10m";

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      description = "table, or json (decision lines, then a summary line). Default: table.")
  OutputFormat output = OutputFormat.table;

  @picocli.CommandLine.Mixin RecordOption record = new RecordOption();

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  boolean verbose;

  @Override
  public Integer call() throws Exception {
    Ds2Options options = ScalingFlags.read(spec, DEMO_DEFAULTS);
    Instant end = Instant.now().plus(DurationFlag.parse("--duration", duration));
    boolean json = output == OutputFormat.json;
    PrintWriter out = spec.commandLine().getOut();
    // With -o json stdout carries only JSON lines; the narration goes to stderr.
    PrintWriter say = json ? spec.commandLine().getErr() : out;
    JobSpec job = SampleJobs.ordersAndPayments().withRateControl(RATE_CONTROL);
    RateControl.set(RATE_CONTROL, 1);
    say.println(
        "Starting an in-process Flink cluster (2 TaskManagers x 4 slots; " + FAST_BECAUSE + ")...");
    say.flush();
    DemoRun run = new DemoRun(job, Clock.systemUTC(), out, json);
    java.util.Optional<String> ended = java.util.Optional.empty();
    try (LocalFlinkCluster cluster =
            LocalFlinkCluster.startWithFastTimings(4, Map.of(), FAST_BECAUSE);
        GracefulStop stop = new GracefulStop()) {
      JobClient client = cluster.submit(job);
      say.printf(
          "Flink REST API: %s (try: bin/ds2 recommend --flink-url %s)%n"
              + "Sample job '%s' (%s) starts with every vertex at parallelism 1.%n"
              + "Needed (closed form) at the base rate: %s; at twice the rate: %s%n%n",
          cluster.restUrl(),
          cluster.restUrl(),
          job.name(),
          client.getJobID(),
          job.oracle(1),
          job.oracle(2));
      say.flush();
      try {
        ended =
            control(
                cluster,
                client.getJobID().toHexString(),
                options,
                run,
                end,
                stop,
                say,
                record,
                // its generators name no splits in their metrics: the demo says how many, as a user
                // of such a source would (--source-splits)
                job.sourceSplits());
      } catch (InterruptedException e) {
        say.println("\nStopping...");
      } finally {
        Thread.interrupted(); // clear, so cancelling and closing are not cut short
        cancelQuietly(client);
      }
    } finally {
      RateControl.clear(RATE_CONTROL);
    }
    if (json) {
      out.println(run.summaryJson());
    } else {
      out.print(run.summary());
    }
    out.flush();
    say.println("Stopped.");
    say.flush();
    if (ended.isPresent()) {
      spec.commandLine().getErr().println(spec.qualifiedName() + ": " + ended.get());
      spec.commandLine().getErr().flush();
      return ExitCodes.RUNTIME;
    }
    return ExitCodes.OK;
  }

  /**
   * Connects the loop (recording it if asked) and runs the script on it.
   *
   * @return why the job ended, if it did before the script was over
   */
  private static java.util.Optional<String> control(
      LocalFlinkCluster cluster,
      String jobId,
      Ds2Options options,
      DemoRun run,
      Instant end,
      GracefulStop stop,
      PrintWriter say,
      RecordOption record,
      java.util.Map<String, Integer> sourceSplits)
      throws InterruptedException, java.io.IOException {
    FlinkRestClient rest = new FlinkRestClient(cluster.restUrl(), Duration.ofSeconds(10));
    JobSampler sampler = new JobSampler(rest, jobId, Clock.systemUTC());
    try (LiveRecording recording =
        record.start(rest, sampler, awaitTopology(sampler, end), options, sourceSplits)) {
      ControlLoop loop =
          RestLoops.of(
              rest,
              recording == null ? sampler : recording.source(),
              options,
              Mode.ACT,
              io.ds2.core.estimate.DemandScenario.measured().withSourceSplits(sourceSplits),
              recording == null ? run : EventSink.all(run, recording.listener()));
      return script(loop, run, end, stop, say);
    }
  }

  private static java.util.Optional<String> script(
      ControlLoop loop, DemoRun run, Instant end, GracefulStop stop, PrintWriter say)
      throws InterruptedException {
    while (!stop.requested() && Instant.now().isBefore(end)) {
      java.util.Optional<String> ended = loop.run(() -> true, 1);
      if (ended.isPresent()) {
        return ended;
      }
      if (run.settled()) {
        if (run.factor() == 1) {
          say.println("\nSettled. Doubling the source rate...\n");
          say.flush();
          run.nextPhase(2);
          RateControl.set(RATE_CONTROL, 2);
        } else {
          say.println("\nSettled at twice the rate.\n");
          say.flush();
          return java.util.Optional.empty();
        }
      }
    }
    return java.util.Optional.empty();
  }

  private static JobTopology awaitTopology(JobSampler sampler, Instant end)
      throws InterruptedException {
    while (true) {
      try {
        return sampler.topology();
      } catch (SourceFailure e) {
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
}
