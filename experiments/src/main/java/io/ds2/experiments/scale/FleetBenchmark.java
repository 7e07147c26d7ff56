package io.ds2.experiments.scale;

import io.ds2.core.options.Ds2Options;
import io.ds2.operator.OperatorMetrics;
import io.ds2.testkit.FluidJob;
import io.ds2.testkit.SimulatedFlink;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One ds2 operator managing N simulated jobs through its own path ({@link Fleet}: FlinkDeployments
 * on an in-memory API server, the operator's informers, shared scheduler, state store and overrides
 * actuator; a {@link SimulatedFlink} endpoint fed by fluid models). Reports the time between a
 * job's decisions, decisions and rescales, REST calls per second, the process's threads (at most,
 * during the run) and the scheduler's, CPU and heap.
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
      double steadyLoopP99Seconds,
      long rescales,
      int jobsAtOracle,
      long retriedFailures,
      double restCallsPerSecond,
      double cpuCoresUsed,
      double peakHeapMiB,
      double heapAfterGcMiB,
      int threads,
      int schedulerThreads) {}

  private FleetBenchmark() {}

  public static Result run(int jobs, Duration length) throws Exception {
    System.gc();
    ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    long cpu0 = cpuNanos();
    long t0 = System.nanoTime();
    int atOracle;
    int threads = 0;
    int schedulerThreads;
    long requests;
    long decisions = 0;
    long rescales = 0;
    long problems = 0;
    Map<String, List<Double>> decisionTimes = new HashMap<>();
    // When each job was first seen rescaled (wall-clock seconds, as the decision metric): the
    // intervals after it are the steady loop, those before include the rescale every job makes
    // at about the same time (they all start at parallelism 1 together).
    Map<String, Double> rescaledAt = new HashMap<>();
    try (Fleet fleet = new Fleet(jobs, OPTIONS)) {
      fleet.start();
      long end = System.nanoTime() + length.toNanos();
      while (System.nanoTime() < end) {
        // Each job's last decision time, as its metric says: a new value is a new decision.
        for (String name : fleet.names()) {
          double at = fleet.figures(name).lastDecision();
          List<Double> times = decisionTimes.computeIfAbsent(name, n -> new ArrayList<>());
          if (at > 0 && (times.isEmpty() || times.get(times.size() - 1) != at)) {
            times.add(at);
          }
          if (!rescaledAt.containsKey(name) && fleet.figures(name).appliedRescales() > 0) {
            rescaledAt.put(name, System.currentTimeMillis() / 1000.0);
          }
        }
        threads = Math.max(threads, ManagementFactory.getThreadMXBean().getThreadCount());
        Thread.sleep(1000);
      }
      schedulerThreads = fleet.operator().schedulerThreads();
      requests = fleet.requests();
      atOracle =
          (int) fleet.names().stream().map(fleet::job).filter(FleetBenchmark::atOracle).count();
      for (String name : fleet.names()) {
        OperatorMetrics.JobFigures f = fleet.figures(name);
        decisions += (long) f.decisions();
        rescales += (long) f.appliedRescales();
        problems += (long) f.errors();
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpu = (cpuNanos() - cpu0) / 1e9 / seconds;
    long peak =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .mapToLong(p -> p.getPeakUsage().getUsed())
            .sum();
    List<Double> intervals = new ArrayList<>();
    List<Double> steady = new ArrayList<>();
    for (Map.Entry<String, List<Double>> e : decisionTimes.entrySet()) {
      List<Double> times = e.getValue();
      double rescaled = rescaledAt.getOrDefault(e.getKey(), Double.MAX_VALUE);
      for (int i = 1; i < times.size(); i++) {
        intervals.add(times.get(i) - times.get(i - 1));
        if (times.get(i - 1) > rescaled) {
          steady.add(times.get(i) - times.get(i - 1));
        }
      }
    }
    Collections.sort(intervals);
    Collections.sort(steady);
    System.gc();
    long after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    return new Result(
        jobs,
        seconds,
        decisions,
        intervals.isEmpty() ? 0 : intervals.get(intervals.size() / 2),
        p99(intervals),
        p99(steady),
        rescales,
        atOracle,
        problems,
        requests / seconds,
        cpu,
        peak / 1048576.0,
        after / 1048576.0,
        threads,
        schedulerThreads);
  }

  private static double p99(List<Double> sorted) {
    return sorted.isEmpty()
        ? 0
        : sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * 0.99)));
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
