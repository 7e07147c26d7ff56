package io.ds2.cli;

import io.ds2.commandline.DurationFlag;
import io.ds2.commandline.ExitCodes;
import io.ds2.commandline.GracefulStop;
import io.ds2.commandline.UsageException;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.options.Durations;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.MetricSource;
import io.ds2.core.scaler.SourceFailure;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.JobStates;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobSampler;
import io.ds2.recording.LiveRecording;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Records a live job's raw metrics to a file, for {@code ds2 whatif} and later analysis. */
@Command(
    name = "record",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    header = "Record a running job's raw metrics for ds2 whatif.",
    description = {
      "Records per-subtask counters, backlog, topology and restarts as JSON Lines, one poll per"
          + " --interval, flushed per poll.",
      "Survives restarts and rescales of the job; Ctrl-C, SIGTERM or --duration end it with a"
          + " valid file."
    })
final class RecordCommand implements Callable<Integer> {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Mixin JobOptions target = new JobOptions();

  @Option(
      names = "--out",
      required = true,
      paramLabel = "FILE",
      description = "The recording to write (replaced if it exists); gzip if it ends in .gz.")
  Path out;

  @Option(
      names = "--interval",
      paramLabel = "DURATION",
      description =
          "Time between polls; at least 1s. Each poll waits for Flink's metric store to refresh"
              + " (metrics.fetcher.update-interval), so an interval below it records at its pace."
              + " Default: 10s (Flink's default refresh).")
  String interval = "10s";

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      description = "Stop after this long. Default: until stopped.")
  String duration;

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  boolean verbose;

  @Override
  public Integer call() throws Exception {
    Duration every = DurationFlag.parse("--interval", interval);
    if (every.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new UsageException("--interval must be at least 1s, was " + interval);
    }
    Optional<Duration> limit =
        Optional.ofNullable(duration).map(d -> DurationFlag.parse("--duration", d));
    FlinkRestClient client = target.client();
    String jobId = target.locateJob(client);
    // Every line a new reading: each poll waits for Flink's metric store to refresh.
    JobSampler sampler =
        new JobSampler(
            client, jobId, Clock.systemUTC(), JobSampler.Reads.FRESH, io.ds2.flink.Sleeper.SYSTEM);
    JobTopology topology = sampler.topology();
    PrintWriter say = spec.commandLine().getOut();
    StderrProgress progress = new StderrProgress(spec.commandLine().getErr());
    Instant start = Instant.now();
    long polls;
    LiveRecording recording;
    try {
      recording =
          LiveRecording.start(
              out, client, sampler, topology, every, Map.of(), Map.of(), Clock.systemUTC());
    } catch (UncheckedIOException e) {
      throw new UsageException("--out: " + e.getMessage());
    }
    Duration refresh = sampler.metricRefresh().orElse(every);
    say.println(
        "ds2 record: job "
            + topology.jobName()
            + " ("
            + jobId
            + ") to "
            + out
            + ", a poll every "
            + Durations.format(every)
            + (refresh.compareTo(every) > 0
                ? " (Flink refreshes its metrics every "
                    + Durations.format(refresh)
                    + ": each poll waits for new values)"
                : "")
            + limit.map(d -> " for " + Durations.format(d)).orElse("; Ctrl-C to stop"));
    say.flush();
    try (recording;
        GracefulStop stop = new GracefulStop()) {
      polls = record(recording.source(), topology.graph(), every, limit, stop, progress);
    }
    progress.done();
    say.printf(
        "recorded %d polls over %d s to %s%n",
        polls, Duration.between(start, Instant.now()).toSeconds(), out);
    say.flush();
    return ExitCodes.OK;
  }

  private long record(
      MetricSource source,
      JobGraph graph,
      Duration every,
      Optional<Duration> limit,
      GracefulStop stop,
      StderrProgress progress)
      throws IOException {
    Instant start = Instant.now();
    Optional<Instant> end = limit.map(start::plus);
    long polls = 0;
    for (long tick = 1; !stop.requested(); tick++) {
      try {
        JobSample s = source.sample(graph);
        polls++;
        if (JobStates.TERMINAL.contains(s.jobState())) {
          progress.note("job became " + s.jobState() + "; the recording ends here");
          break;
        }
        progress.status(
            "recording: "
                + Duration.between(start, Instant.now()).toSeconds()
                + " s, "
                + polls
                + " polls, job "
                + s.jobState());
      } catch (SourceFailure e) {
        if (e.failure() == SourceFailure.Kind.JOB_NOT_FOUND) {
          throw e;
        }
        progress.note("poll failed: " + e.getMessage() + "; trying again next interval");
        if (e.failure() == SourceFailure.Kind.METRICS_MISSING) {
          graph = reread(source, graph);
        }
      }
      Instant next = start.plus(every.multipliedBy(tick));
      if (end.isPresent() && !next.isBefore(end.get())) {
        break;
      }
      try {
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), next).toMillis()));
      } catch (InterruptedException e) {
        break; // Ctrl-C: the file is closed (complete) by the caller
      }
    }
    return polls;
  }

  /** The graph after a change (or the old one if Flink cannot say right now). */
  private static JobGraph reread(MetricSource source, JobGraph old) {
    try {
      return source.topology().graph();
    } catch (SourceFailure e) {
      return old;
    }
  }
}
