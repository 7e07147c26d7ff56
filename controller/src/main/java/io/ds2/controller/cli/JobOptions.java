package io.ds2.controller.cli;

import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobLocator;
import java.net.URI;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The flags that say which job to look at and how to reach it (recommend, run, record). */
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
}
