package io.ds2.controller.cli;

import io.ds2.controller.loop.ControlLoop;
import io.ds2.controller.loop.DecisionLog;
import io.ds2.controller.loop.LoopListener;
import io.ds2.controller.loop.SummaryPrinter;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobLocator;
import io.ds2.flink.JobSampler;
import io.ds2.flink.RestRescaler;
import io.ds2.model.options.Ds2Options;
import io.ds2.model.policy.ScalingPolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the closed loop against a job: decide every window, rescale through Flink's REST API. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Autoscale a running job: every window, estimate (DS2), decide (policy) and rescale in",
      "place through the adaptive scheduler's REST API. One summary line per decision on stdout;",
      "--decision-log writes every decision as a JSON line. Ctrl-C / SIGTERM stop between steps."
    })
final class RunCommand implements Callable<Integer>, ScalingFlags.Taker {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--flink-url",
      required = true,
      paramLabel = "URL",
      description = "Flink REST endpoint, e.g. http://localhost:8081.")
  URI flinkUrl;

  @Option(
      names = "--job",
      paramLabel = "ID|NAME",
      description = "Job id or name. Default: the only running job.")
  String job;

  @Option(names = "--dry-run", description = "Decide and log, never rescale.")
  boolean dryRun;

  @Option(
      names = "--decision-log",
      paramLabel = "FILE",
      description = "Append every decision and rescale as a JSON line to FILE.")
  Path decisionLog;

  @Option(
      names = "--source-rate",
      paramLabel = "VERTEX=RECORDS_PER_S",
      description =
          "Demand of a source vertex (name or id), records/s for the whole vertex. Repeatable.")
  Map<String, String> sourceRates = new LinkedHashMap<>();

  @Option(
      names = "--max-decisions",
      paramLabel = "N",
      description = "Stop after N decisions. Default: run until stopped.")
  long maxDecisions = Long.MAX_VALUE;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description = "Timeout of each REST call. Default: 10s.")
  String timeout = "10s";

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  boolean verbose;

  @Override
  public Integer call() throws Exception {
    Ds2Options options = ScalingFlags.read(spec, Map.of());
    if (maxDecisions < 1) {
      throw new UsageException("--max-decisions must be at least 1, was " + maxDecisions);
    }
    Duration restTimeout = RecommendCommand.parseDuration("--timeout", timeout);
    FlinkRestClient client =
        new FlinkRestClient(RecommendCommand.requireHttp(flinkUrl), restTimeout);
    String jobId = new JobLocator(client).locate(Optional.ofNullable(job)).jid();
    JobSampler sampler = new JobSampler(client, jobId, Clock.systemUTC());
    Map<String, Double> given =
        RecommendCommand.resolveSourceRates(sampler.topology().graph(), sourceRates);
    PrintWriter out = spec.commandLine().getOut();
    try (DecisionLog log = openLog();
        GracefulStop stop = new GracefulStop()) {
      LoopListener listener =
          log == null
              ? new SummaryPrinter(out, Clock.systemUTC())
              : LoopListener.all(new SummaryPrinter(out, Clock.systemUTC()), log);
      RestRescaler rescaler =
          new RestRescaler(
              client, Clock.systemUTC(), d -> Thread.sleep(d.toMillis()), Duration.ofSeconds(1));
      ControlLoop loop =
          new ControlLoop(
              sampler,
              new ScalingPolicy(options, Clock.systemUTC()),
              rescaler::rescale,
              dryRun ? ControlLoop.Mode.DRY_RUN : ControlLoop.Mode.ACT,
              given,
              listener,
              d -> Thread.sleep(d.toMillis()));
      out.println(
          "ds2 run: job "
              + jobId
              + " at "
              + client.baseUrl()
              + (dryRun ? " (dry run)" : "")
              + "; a decision every "
              + options.window().toSeconds()
              + " s window after a "
              + options.warmUp().toSeconds()
              + " s warm-up");
      out.flush();
      try {
        loop.run(() -> !stop.requested(), maxDecisions);
      } catch (InterruptedException e) {
        out.println("stopped");
        out.flush();
      }
    }
    return ExitCodes.OK;
  }

  private DecisionLog openLog() {
    if (decisionLog == null) {
      return null;
    }
    try {
      return new DecisionLog(
          Files.newBufferedWriter(
              decisionLog,
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND),
          Clock.systemUTC());
    } catch (IOException e) {
      throw new UsageException("--decision-log: cannot write " + decisionLog + ": " + e);
    }
  }
}
