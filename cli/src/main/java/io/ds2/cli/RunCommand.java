package io.ds2.cli;

import io.ds2.commandline.ExitCodes;
import io.ds2.commandline.GracefulStop;
import io.ds2.commandline.ScalingFlags;
import io.ds2.commandline.UsageException;
import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobSampler;
import io.ds2.loop.ControlLoop;
import io.ds2.loop.DecisionLog;
import io.ds2.loop.EventSink;
import io.ds2.loop.RestLoops;
import io.ds2.loop.SummaryPrinter;
import io.ds2.recording.LiveRecording;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Runs the closed loop against a job: decide every window, rescale through Flink's REST API. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    header = "Autoscale a running job through Flink's REST API.",
    description = {
      "Every window: estimate (DS2), decide (policy) and rescale in place through the adaptive"
          + " scheduler's REST API.",
      "One summary line per decision on stdout; --decision-log writes every decision as a JSON"
          + " line.",
      "Ctrl-C or SIGTERM stop between steps."
    })
final class RunCommand implements Callable<Integer>, ScalingFlags.Taker {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Mixin JobOptions target = new JobOptions();

  @Mixin SourceOptions sources = new SourceOptions();

  @Option(names = "--dry-run", description = "Decide and log, never rescale.")
  boolean dryRun;

  @Option(
      names = "--decision-log",
      paramLabel = "FILE",
      description = "Append every decision and rescale as a JSON line to FILE.")
  Path decisionLog;

  @Mixin RecordOption record = new RecordOption();

  @Option(
      names = "--max-decisions",
      paramLabel = "N",
      description = "Stop after N decisions. Default: run until stopped.")
  long maxDecisions = Long.MAX_VALUE;

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  boolean verbose;

  @Override
  public Integer call() throws Exception {
    Ds2Options options = ScalingFlags.read(spec, Map.of());
    if (maxDecisions < 1) {
      throw new UsageException("--max-decisions must be at least 1, was " + maxDecisions);
    }
    FlinkRestClient client = target.client();
    String jobId = target.locateJob(client);
    JobSampler sampler = new JobSampler(client, jobId, Clock.systemUTC());
    JobTopology topology = sampler.topology();
    DemandScenario scenario = sources.scenario(topology.graph());
    PrintWriter out = spec.commandLine().getOut();
    try (DecisionLog log = openLog();
        LiveRecording recording =
            record.start(client, sampler, topology, options, scenario.sourceSplits());
        GracefulStop stop = new GracefulStop()) {
      SummaryPrinter summary = new SummaryPrinter(out, Clock.systemUTC());
      List<EventSink> listeners = new ArrayList<>(List.of(summary));
      if (log != null) {
        listeners.add(log);
      }
      if (recording != null) {
        listeners.add(recording.listener());
      }
      ControlLoop loop =
          RestLoops.of(
              client,
              recording == null ? sampler : recording.source(),
              options,
              dryRun ? Mode.DRY_RUN : Mode.ACT,
              scenario,
              EventSink.all(listeners.toArray(EventSink[]::new)));
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
        Optional<String> ended = loop.run(() -> !stop.requested(), maxDecisions);
        if (ended.isPresent()) {
          spec.commandLine().getErr().println(spec.qualifiedName() + ": " + ended.get());
          spec.commandLine().getErr().flush();
          return ExitCodes.RUNTIME;
        }
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
      throw new UsageException(
          "--decision-log: cannot write " + decisionLog + ": " + io.ds2.recording.ReadErrors.io(e));
    }
  }
}
