package io.ds2.experiments;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/ds2-bench soak}: the soak benchmark from the command line. */
@Command(
    name = "soak",
    mixinStandardHelpOptions = true,
    description =
        "ds2's operator managing many simulated jobs for a long time, demand switching x1 / x1.5"
            + " and a tenth of the jobs replaced every minute: heap, threads, connections, event"
            + " de-duplication entries and metric series must stay flat.")
final class SoakCommand implements Callable<Integer> {
  @Option(names = "--jobs", description = "Default: 200.")
  int jobs = 200;

  @Option(names = "--minutes", description = "Default: 10.")
  int minutes = 10;

  @Option(names = "--out", description = "Write the result as JSON here.")
  Path out;

  @Override
  public Integer call() throws Exception {
    System.out.printf(
        "%8s %12s %8s %12s %8s %8s %6s %10s %9s %9s%n",
        "SECONDS",
        "HEAP AFTER GC",
        "THREADS",
        "CONNECTIONS",
        "EVENTS",
        "SERIES",
        "JOBS",
        "DECISIONS",
        "RESCALES",
        "PROBLEMS");
    var r =
        io.ds2.experiments.scale.SoakBenchmark.run(
            jobs,
            java.time.Duration.ofMinutes(minutes),
            java.time.Duration.ofSeconds(30),
            java.time.Duration.ofSeconds(150),
            java.time.Duration.ofSeconds(60),
            s ->
                System.out.printf(
                    Locale.ROOT,
                    "%8.0f %11.1fM %8d %12d %8d %8d %6d %10d %9d %9d%n",
                    s.seconds(),
                    s.heapAfterGcMiB(),
                    s.threads(),
                    s.openConnections(),
                    s.eventEntries(),
                    s.metricSeries(),
                    s.managedJobs(),
                    s.decisions(),
                    s.rescales(),
                    s.problems()));
    System.out.printf(
        Locale.ROOT,
        "slopes per hour through whole %.0f s cycles after the first: heap %.2f MiB, threads %.2f, connections %.2f,"
            + " event entries %.2f, metric series %.2f; %d jobs replaced;"
            + " %d of %d jobs at their oracle at the end; Warning events by reason: %s%n",
        r.cycleSeconds(),
        r.heapSlopeMiBPerHour(),
        r.threadSlopePerHour(),
        r.connectionSlopePerHour(),
        r.eventEntrySlopePerHour(),
        r.metricSeriesSlopePerHour(),
        r.jobsReplaced(),
        r.jobsAtOracle(),
        r.jobs(),
        r.warningsByReason());
    Bench.writeResults(
        out, "soak", List.of(r), io.ds2.experiments.scale.SoakBenchmark.OPTIONS.toString());
    return 0;
  }
}
