package io.ds2.experiments.scale;

import io.ds2.controller.loop.ControlLoop;
import io.ds2.controller.loop.LoopListener;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobSampler;
import io.ds2.flink.JobTopology;
import io.ds2.flink.RescaleOutcome;
import io.ds2.model.estimate.DemandScenario;
import io.ds2.model.options.Ds2Options;
import io.ds2.model.policy.Decision;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

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
    Map<String, List<Long>> decisionTimes = new ConcurrentHashMap<>();
    AtomicLong decisions = new AtomicLong();
    AtomicLong rescales = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    List<FluidJob> fluid = new ArrayList<>();
    int atOracle;
    int threadCount;
    long requests;
    try (SimulatedFlink flink = new SimulatedFlink(8)) {
      FlinkRestClient client = new FlinkRestClient(flink.url(), Duration.ofSeconds(30));
      for (int i = 0; i < jobs; i++) {
        String id = String.format("%032x", i + 1);
        // 300-400 records/s into costs that need 3-5 Parse, 2-3 Enrich and 1-2 Sink instances.
        double demand = 300 + (i % 5) * 25;
        FluidJob job =
            new FluidJob(
                id,
                List.of(
                    new FluidJob.Stage("a" + id.substring(1), "Source: In", 0, 1),
                    new FluidJob.Stage("b" + id.substring(1), "Parse", 0.0111, 1),
                    new FluidJob.Stage("c" + id.substring(1), "Enrich", 0.0065, 0.5),
                    new FluidJob.Stage("d" + id.substring(1), "Sink", 0.008, 0)),
                demand,
                System.currentTimeMillis());
        flink.add(job);
        fluid.add(job);
        List<Long> times = Collections.synchronizedList(new ArrayList<>());
        decisionTimes.put(id, times);
        ControlLoop loop =
            ControlLoop.overRest(
                client,
                new JobSampler(client, id, Clock.systemUTC()),
                options,
                ControlLoop.Mode.ACT,
                DemandScenario.measured(),
                new Counting(times, decisions, rescales));
        Thread t =
            new Thread(
                () -> {
                  try {
                    loop.run(() -> !Thread.currentThread().isInterrupted(), Long.MAX_VALUE);
                  } catch (InterruptedException e) {
                    // stopped
                  }
                },
                "job-" + i);
        t.setDaemon(true);
        threads.add(t);
      }
      threads.forEach(Thread::start);
      Thread.sleep(length.toMillis());
      threads.forEach(Thread::interrupt);
      for (Thread t : threads) {
        t.join(10_000);
      }
      requests = flink.requests();
      threadCount = Thread.activeCount();
      atOracle = (int) fluid.stream().filter(FleetBenchmark::atOracle).count();
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
    long problems = Counting.PROBLEMS.getAndSet(0);
    System.gc();
    long after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    return new Result(
        jobs,
        seconds,
        decisions.get(),
        intervals.isEmpty() ? 0 : intervals.get(intervals.size() / 2),
        intervals.isEmpty()
            ? 0
            : intervals.get(Math.min(intervals.size() - 1, (int) (intervals.size() * 0.99))),
        rescales.get(),
        atOracle,
        problems,
        requests / seconds,
        cpu,
        peak / 1048576.0,
        after / 1048576.0,
        threadCount);
  }

  /** The fluid job runs at the smallest parallelism that keeps up (its closed form). */
  private static boolean atOracle(FluidJob job) {
    Map<String, Integer> p = job.parallelism();
    double rate = 0;
    // Reconstruct the demand from the first stage's cost-free source: in = demand.
    for (FluidJob.Stage s : job.stages()) {
      if (s.cost() == 0) {
        continue;
      }
      rate = rate == 0 ? demandOf(job) : rate;
      int oracle = (int) Math.ceil(rate * s.cost() - 1e-9);
      if (p.get(s.id()) != Math.max(1, oracle)) {
        return false;
      }
      rate *= s.selectivity();
    }
    return true;
  }

  private static double demandOf(FluidJob job) {
    return job.demand();
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Counts decisions (with their times) and applied rescales. */
  private record Counting(List<Long> times, AtomicLong decisions, AtomicLong rescales)
      implements LoopListener {
    static final AtomicLong PROBLEMS = new AtomicLong();

    /** A REST call failed or timed out; the loop retries it after a window. */
    @Override
    public void problem(String message) {
      PROBLEMS.incrementAndGet();
    }

    @Override
    public void decided(JobTopology t, Decision d, ControlLoop.Mode mode) {
      times.add(System.nanoTime());
      decisions.incrementAndGet();
    }

    @Override
    public void rescaled(JobTopology t, Map<String, Integer> requested, RescaleOutcome o) {
      if (o instanceof RescaleOutcome.Applied) {
        rescales.incrementAndGet();
      }
    }
  }
}
