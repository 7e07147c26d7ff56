package io.ds2.experiments;

import io.ds2.experiments.scale.OperatorSoakBenchmark;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/ds2-bench operator-soak}: the operator under faults on a real kube-apiserver. */
@Command(
    name = "operator-soak",
    mixinStandardHelpOptions = true,
    description =
        "Two ds2 replicas at the chart's settings on a real kube-apiserver (built with Go on first"
            + " use), six simulated jobs, and in every 10 minutes: an API-server restart, the"
            + " Lease taken, a Flink operator paused, upgrades that do not take or a change freeze"
            + " that refuses ds2's patches.")
final class OperatorSoakCommand implements Callable<Integer> {
  @Option(names = "--minutes", description = "Default: 60.")
  int minutes = 60;

  @Option(
      names = "--cycle-minutes",
      description = "The faults' cycle (default 10; shorter only to try the harness out).")
  int cycleMinutes = (int) OperatorSoakBenchmark.CYCLE.toMinutes();

  @Option(names = "--out", description = "Write the result as JSON here.")
  Path out;

  @Override
  public Integer call() throws Exception {
    var r =
        OperatorSoakBenchmark.run(
            Duration.ofMinutes(minutes), Duration.ofMinutes(cycleMinutes), System.out::println);
    for (var j : r.jobs()) {
      System.out.printf(
          Locale.ROOT,
          "%-18s %-8s longest unread %5.1f s (at %5.0f s), longest spec/job mismatch %5.1f s,"
              + " infeasible sightings %d, overrides applied %d, ends %s running %s%n",
          j.name(),
          j.role(),
          j.longestUnreadSeconds(),
          j.atSeconds(),
          j.longestMismatchSeconds(),
          j.infeasibleSightings(),
          j.applied(),
          j.finalOverrides(),
          j.finalParallelism());
    }
    System.out.printf(
        Locale.ROOT,
        "longest unread %.1f s (two windows: %.0f s); seconds with two leaders %d, with none %d;"
            + " writes %d (%s), by a replica not leading %d, while another led %d;"
            + " slopes per hour over whole cycles: heap %.2f MiB, threads %.2f%n"
            + "events %s%ndecisions and applied rescales by replica %s%n",
        r.longestUnreadSeconds(),
        2 * r.windowSeconds(),
        r.bothLeadingSeconds(),
        r.noLeaderSeconds(),
        r.writes(),
        r.writesByReplica(),
        r.writesByNonLeader(),
        r.writesWhileAnotherLed(),
        r.heapSlopeMiBPerHour(),
        r.threadSlopePerHour(),
        r.eventsByReason(),
        r.decisionsAndRescalesByReplica().entrySet().stream()
            .map(e -> e.getKey() + "=" + (long) e.getValue()[0] + "/" + (long) e.getValue()[1])
            .toList());
    System.out.println("threads at the end by name: " + r.threadsByName());
    r.writesNotLeading().forEach(w -> System.out.println("write by a replica not leading: " + w));
    Bench.writeResults(out, "operator-soak", List.of(r), "ds2 defaults, chart Lease timings");
    return 0;
  }
}
