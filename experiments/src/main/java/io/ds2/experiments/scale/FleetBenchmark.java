package io.ds2.experiments.scale;

import io.ds2.model.options.Ds2Options;
import io.ds2.testkit.FluidJob;
import io.ds2.testkit.SimulatedFlink;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One ds2 process driving N simulated jobs (a {@link SimulatedFlink} endpoint fed by fluid models)
 * with its real loop (REST client, sampler, window collector, DS2 model, policy, REST rescaler):
 * one loop per job on its own thread, one shared HTTP client. Reports the time between a job's
 * decisions, decisions and rescales, REST calls per second, CPU and heap.
 */
public final class FleetBenchmark {
  /** 10 s windows polled every 2.5 s, no warm-up: a decision per job every window and a poll. */
  public static final Map<String, String> OPTIONS =
      Map.of(
          Ds2Options.WINDOW, "10s",
          Ds2Options.WARM_UP, "0s",
          Ds2Options.SAMPLE_INTERVAL, "2500ms",
          Ds2Options.ACTIVATION, "1",
          Ds2Options.RESCALE_TIMEOUT, "30s");

  public record Result(
      int jobs,
      double seconds,
      long decisions,
      double loopMedianSeconds,
      double loopP99Seconds,
      long rescales,
      int jobsAtOracle,
      long retriedFailures,
      double restCallsPerSecond,
      double cpuCoresUsed,
      double peakHeapMiB,
      double heapAfterGcMiB,
      int threads) {}

  private FleetBenchmark() {}

  public static Result run(int jobs, Duration length) throws Exception {
    Ds2Options options = Ds2Options.fromMap(OPTIONS);
    System.gc();
    ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    long cpu0 = cpuNanos();
    long t0 = System.nanoTime();
    int atOracle;
    int threadCount;
    long requests;
    Map<String, List<Long>> decisionTimes;
    long decisions;
    long rescales;
    long problems;
    try (Fleet fleet = new Fleet(jobs, options)) {
      fleet.start();
      Thread.sleep(length.toMillis());
      fleet.close();
      requests = fleet.requests();
      threadCount = Thread.activeCount();
      atOracle = (int) fleet.jobs().stream().filter(FleetBenchmark::atOracle).count();
      decisionTimes = fleet.decisionTimes;
      decisions = fleet.decisions.get();
      rescales = fleet.rescales.get();
      problems = fleet.problems.get();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpu = (cpuNanos() - cpu0) / 1e9 / seconds;
    long peak =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .mapToLong(p -> p.getPeakUsage().getUsed())
            .sum();
    List<Double> intervals = new ArrayList<>();
    for (List<Long> times : decisionTimes.values()) {
      for (int i = 1; i < times.size(); i++) {
        intervals.add((times.get(i) - times.get(i - 1)) / 1e9);
      }
    }
    Collections.sort(intervals);
    System.gc();
    long after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    return new Result(
        jobs,
        seconds,
        decisions,
        intervals.isEmpty() ? 0 : intervals.get(intervals.size() / 2),
        intervals.isEmpty()
            ? 0
            : intervals.get(Math.min(intervals.size() - 1, (int) (intervals.size() * 0.99))),
        rescales,
        atOracle,
        problems,
        requests / seconds,
        cpu,
        peak / 1048576.0,
        after / 1048576.0,
        threadCount);
  }

  /** The fluid job runs at the smallest parallelism that keeps up (its closed form). */
  static boolean atOracle(FluidJob job) {
    Map<String, Integer> p = job.parallelism();
    double rate = job.demand();
    for (FluidJob.Stage s : job.stages()) {
      if (s.cost() == 0) {
        continue; // the source: it is not sized
      }
      int oracle = (int) Math.ceil(rate * s.cost() - 1e-9);
      if (p.get(s.id()) != Math.max(1, oracle)) {
        return false;
      }
      rate *= s.selectivity();
    }
    return true;
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
