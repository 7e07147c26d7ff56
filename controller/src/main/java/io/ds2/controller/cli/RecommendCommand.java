package io.ds2.controller.cli;

import io.ds2.controller.render.EstimateJson;
import io.ds2.controller.render.EstimateTable;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobLocator;
import io.ds2.flink.JobSampler;
import io.ds2.flink.JobTopology;
import io.ds2.flink.WindowCollector;
import io.ds2.model.estimate.DemandEstimator;
import io.ds2.model.estimate.Ds2Model;
import io.ds2.model.estimate.Estimate;
import io.ds2.model.graph.JobGraph;
import io.ds2.model.graph.Vertex;
import io.ds2.model.options.Ds2Options;
import io.ds2.model.options.Durations;
import io.ds2.model.window.ObservationWindow;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Prints the parallelism each vertex of a running job needs, after one observation window. */
@Command(
    name = "recommend",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Observe a running job for one window and print the parallelism every vertex needs.",
      "Demand is taken from --source-rate where given, else inferred from each source's output",
      "and backlog (pendingRecords)."
    })
final class RecommendCommand implements Callable<Integer>, ScalingFlags.Taker {
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

  @Option(
      names = "--source-rate",
      paramLabel = "VERTEX=RECORDS_PER_S",
      description =
          "Demand of a source vertex (name or id), records/s for the whole vertex. Repeatable.")
  Map<String, String> sourceRates = new LinkedHashMap<>();

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      description = "table or json. Default: table.")
  OutputFormat output = OutputFormat.table;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description = "Timeout of each REST call. Default: 10s.")
  String timeout = "10s";

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  boolean verbose;

  enum OutputFormat {
    table,
    json
  }

  @Override
  public Integer call() throws Exception {
    Ds2Options options = ScalingFlags.read(spec, Map.of());
    Duration restTimeout = parseDuration("--timeout", timeout);
    FlinkRestClient client = new FlinkRestClient(requireHttp(flinkUrl), restTimeout);
    String jobId = new JobLocator(client).locate(Optional.ofNullable(job)).jid();
    JobSampler sampler = new JobSampler(client, jobId, Clock.systemUTC());
    JobTopology topology = sampler.topology();
    Map<String, Double> given = resolveSourceRates(topology.graph(), sourceRates);

    StderrProgress progress = new StderrProgress(spec.commandLine().getErr());
    ObservationWindow window =
        WindowCollector.live(sampler, options)
            .collect(topology.graph(), WindowCollector.maxWait(options), progress);
    progress.done();

    Estimate estimate = estimate(topology.graph(), window, given, options);
    spec.commandLine()
        .getOut()
        .print(
            output == OutputFormat.json
                ? EstimateJson.render(topology, estimate) + "\n"
                : EstimateTable.render(topology, estimate));
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }

  static Estimate estimate(
      JobGraph graph, ObservationWindow window, Map<String, Double> given, Ds2Options options) {
    return Ds2Model.estimate(
        graph, window, DemandEstimator.demands(graph, window, given, options.catchUp()), options);
  }

  static Map<String, Double> resolveSourceRates(JobGraph graph, Map<String, String> sourceRates) {
    Map<String, Double> resolved = new HashMap<>();
    for (Map.Entry<String, String> e : sourceRates.entrySet()) {
      Vertex v =
          graph
              .find(e.getKey())
              .filter(found -> graph.isSource(found.id()))
              .orElseThrow(
                  () ->
                      new UsageException(
                          "--source-rate: '"
                              + e.getKey()
                              + "' is not a source vertex of the job;"
                              + " sources: "
                              + graph.sources().stream()
                                  .map(s -> "'" + s.name() + "' (" + s.id() + ")")
                                  .collect(Collectors.joining(", "))));
      double rate;
      try {
        rate = Double.parseDouble(e.getValue());
      } catch (NumberFormatException ex) {
        rate = Double.NaN;
      }
      if (!(rate >= 0) || Double.isInfinite(rate)) {
        throw new UsageException(
            "--source-rate: '"
                + e.getValue()
                + "' for '"
                + e.getKey()
                + "' is not a rate in records/s (a number >= 0)");
      }
      resolved.put(v.id(), rate);
    }
    return resolved;
  }

  static Duration parseDuration(String flag, String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException("invalid value '" + text + "' for " + flag + ": " + e.getMessage());
    }
  }

  static URI requireHttp(URI url) {
    if (url.getScheme() == null
        || !(url.getScheme().equals("http") || url.getScheme().equals("https"))
        || url.getHost() == null) {
      throw new UsageException(
          "--flink-url: '" + url + "' is not an http(s) URL like http://localhost:8081");
    }
    return url;
  }
}
