package io.ds2.cli;

import io.ds2.commandline.ExitCodes;
import io.ds2.commandline.ScalingFlags;
import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.MetricSource;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobSampler;
import io.ds2.loop.OneWindow;
import io.ds2.recording.LiveRecording;
import io.ds2.render.EstimateJson;
import io.ds2.render.EstimateTable;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Prints the parallelism each vertex of a running job needs, after one observation window. */
@Command(
    name = "recommend",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    header = "Print the parallelism every vertex of a running job needs.",
    description = {
      "Observes the job for one window and prints the parallelism every vertex needs.",
      "Demand is taken from --source-rate where given, else inferred from each source's output"
          + " and backlog (pendingRecords)."
    })
final class RecommendCommand implements Callable<Integer>, ScalingFlags.Taker {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Mixin JobOptions target = new JobOptions();

  @Mixin SourceOptions sources = new SourceOptions();

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      description = "table or json. Default: table.")
  OutputFormat output = OutputFormat.table;

  @Mixin RecordOption record = new RecordOption();

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  boolean verbose;

  @Override
  public Integer call() throws Exception {
    Ds2Options options = ScalingFlags.read(spec, Map.of());
    FlinkRestClient client = target.client();
    String jobId = target.locateJob(client);
    JobSampler sampler = new JobSampler(client, jobId, Clock.systemUTC());
    JobTopology topology = sampler.topology();
    DemandScenario scenario = sources.scenario(topology.graph());

    StderrProgress progress = new StderrProgress(spec.commandLine().getErr());
    OneWindow.Result result;
    try (LiveRecording recording =
        record.start(client, sampler, topology, options, scenario.sourceSplits())) {
      MetricSource source = recording == null ? sampler : recording.source();
      result = OneWindow.estimate(source, options, scenario, progress);
    }
    progress.done();
    if (result instanceof OneWindow.Result.NoWindow none) {
      spec.commandLine().getErr().println(spec.qualifiedName() + ": " + none.why());
      spec.commandLine().getErr().flush();
      return ExitCodes.RUNTIME;
    }
    Estimate estimate = ((OneWindow.Result.Estimated) result).estimate();

    spec.commandLine()
        .getOut()
        .print(
            output == OutputFormat.json
                ? EstimateJson.render(topology, estimate) + "\n"
                : EstimateTable.render(topology, estimate));
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }
}
