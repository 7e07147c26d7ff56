package io.ds2.controller.cli;

import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobLocator;
import io.ds2.model.graph.JobGraph;
import io.ds2.model.graph.Vertex;
import java.net.URI;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/** The flags that say which job to look at and how to reach it (recommend, run). */
final class JobOptions {
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
      names = "--timeout",
      paramLabel = "DURATION",
      description = "Timeout of each REST call. Default: 10s.")
  String timeout = "10s";

  FlinkRestClient client() {
    if (flinkUrl.getScheme() == null
        || !(flinkUrl.getScheme().equals("http") || flinkUrl.getScheme().equals("https"))
        || flinkUrl.getHost() == null) {
      throw new UsageException(
          "--flink-url: '" + flinkUrl + "' is not an http(s) URL like http://localhost:8081");
    }
    return new FlinkRestClient(flinkUrl, RecommendCommand.parseDuration("--timeout", timeout));
  }

  /** The job's id: {@code --job} resolved, or the only running job. */
  String locateJob(FlinkRestClient client) {
    return new JobLocator(client).locate(Optional.ofNullable(job)).jid();
  }

  /** {@code --source-rate} by vertex id; an unknown or non-source vertex is a usage error. */
  Map<String, Double> sourceRates(JobGraph graph) {
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
}
