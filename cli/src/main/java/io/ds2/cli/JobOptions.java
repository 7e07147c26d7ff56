package io.ds2.cli;

import io.ds2.commandline.DurationFlag;
import io.ds2.commandline.UsageException;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobLocator;
import io.ds2.flink.RestAccess;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Mixin;
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

  @Mixin FlinkAccessOptions access = new FlinkAccessOptions();

  FlinkRestClient client() {
    if (flinkUrl.getScheme() == null
        || !(flinkUrl.getScheme().equals("http") || flinkUrl.getScheme().equals("https"))
        || flinkUrl.getHost() == null) {
      throw new UsageException(
          "--flink-url: '" + flinkUrl + "' is not an http(s) URL like http://localhost:8081");
    }
    RestAccess restAccess = access.access();
    Duration t = DurationFlag.parse("--timeout", timeout);
    try {
      return new FlinkRestClient(flinkUrl, t, restAccess);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--flink-url/--flink-*: " + e.getMessage());
    }
  }

  /** The job's id: {@code --job} resolved, or the only running job. */
  String locateJob(FlinkRestClient client) {
    return new JobLocator(client).locate(Optional.ofNullable(job)).jid();
  }
}
