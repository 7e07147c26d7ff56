package io.ds2.experiments.scale;

import io.ds2.core.options.Ds2Options;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * ds2's operator managing many simulated jobs for a long time through its own path ({@link Fleet}),
 * their demand switching between x1 and x1.5 so that every job keeps rescaling, and jobs deleted
 * and created all the while: heap after GC, live threads, open REST connections, the events'
 * de-duplication entries and the metric series are sampled throughout and must stay flat (a leak
 * shows as a slope).
 */
public final class SoakBenchmark {
  /** One reading, {@code seconds} into the run. */
  public record Sample(
      double seconds,
      double heapAfterGcMiB,
      int threads,
      int openConnections,
      int eventEntries,
      int metricSeries,
      int managedJobs,
      long decisions,
      long rescales,
      long problems) {}

  public record Result(
      int jobs,
      double minutes,
      double demandPeriodSeconds,
      double cycleSeconds,
      List<Sample> samples,
      double heapSlopeMiBPerHour,
      double threadSlopePerHour,
      double connectionSlopePerHour,
      double eventEntrySlopePerHour,
      double metricSeriesSlopePerHour,
      int jobsReplaced,
      long decisions,
      long rescales,
      long problems,
      Map<String, Integer> warningsByReason,
      int jobsAtOracle,
      double eventTtlSeconds) {}

  /** The fleet's options with a 30 s scale-down delay, so every demand switch rescales. */
  public static final java.util.Map<String, String> OPTIONS = options();

  private static java.util.Map<String, String> options() {
    java.util.Map<String, String> m = new java.util.HashMap<>(FleetBenchmark.OPTIONS);
    m.put(Ds2Options.SCALE_DOWN_DELAY, "30s");
    return java.util.Map.copyOf(m);
  }

  /** How long events de-duplicate in the soak (production: 30 min). */
  public static final Duration DEDUPE = Duration.ofMinutes(2);

  /**
   * How long the in-memory API server keeps an event after its last update (a real one: {@code
   * --event-ttl}, 1 h): longer than the de-duplication, as in production, so that the operator
   * never updates an event that is gone. Without it the mock kept every event, and a 2-hour run's
   * heap grew by ~10 MiB an hour, all of it the mock's store (class histograms 10 min apart: byte
   * arrays, strings and the mock's stored attributes, ~800 resources).
   */
  static final Duration EVENT_TTL = Duration.ofMinutes(10);

  private SoakBenchmark() {}

  /**
   * The soak's cycle: demand goes x1, x1.5 and back every two {@code demandPeriod}s, jobs are
   * replaced every {@code churnEvery}; both repeat together every least common multiple.
   */
  public static Duration cycle(Duration demandPeriod, Duration churnEvery) {
    long a = demandPeriod.toSeconds() * 2;
    long b = churnEvery.toSeconds();
    if (a <= 0 || b <= 0) {
      throw new IllegalArgumentException(
          "demand period and churn must be whole seconds, not " + demandPeriod + ", " + churnEvery);
    }
    return Duration.ofSeconds(a / gcd(a, b) * b);
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /**
   * @param churnEvery how often a tenth of the jobs is deleted and as many new ones created
   * @param progress told each sample as it is taken
   */
  public static Result run(
      int jobs,
      Duration length,
      Duration sampleEvery,
      Duration demandPeriod,
      Duration churnEvery,
      Consumer<Sample> progress)
      throws Exception {
    List<Sample> samples = new ArrayList<>();
    long t0 = System.nanoTime();
    int atOracle;
    int replaced = 0;
    // Totals of the jobs deleted so far: their series are dropped with them.
    long[] gone = new long[3];
    long[] totals;
    Map<String, Integer> warnings;
    // Events de-duplicate for 2 min instead of 30, so that a 10 min run shows them evicted, and
    // expire after 10 min instead of an hour.
    try (Fleet fleet = new Fleet(jobs, OPTIONS, DEDUPE)) {
      fleet.start();
      long next = sampleEvery.toNanos();
      long nextSwitch = demandPeriod.toNanos();
      long nextChurn = churnEvery.toNanos();
      double factor = 1;
      while (System.nanoTime() - t0 < length.toNanos()) {
        long now = System.nanoTime() - t0;
        if (now >= nextSwitch) {
          factor = factor == 1 ? 1.5 : 1;
          fleet.scaleDemand(factor);
          nextSwitch += demandPeriod.toNanos();
        }
        if (now >= nextChurn) {
          List<String> names = fleet.names();
          for (int i = 0; i < Math.max(1, jobs / 10); i++) {
            String name = names.get(i);
            long[] f = totals(fleet, List.of(name));
            fleet.remove(name);
            for (int k = 0; k < 3; k++) {
              gone[k] += f[k];
            }
            fleet.add();
            replaced++;
          }
          nextChurn += churnEvery.toNanos();
        }
        if (now >= next) {
          fleet.forgetRecordedRequests();
          fleet.expireEvents(EVENT_TTL);
          System.gc();
          long[] t = totals(fleet, fleet.names());
          Sample s =
              new Sample(
                  now / 1e9,
                  ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0,
                  ManagementFactory.getThreadMXBean().getThreadCount(),
                  fleet.openConnections(),
                  fleet.events().remembered(),
                  fleet.metrics().series(),
                  fleet.operator().managed(),
                  t[0] + gone[0],
                  t[1] + gone[1],
                  t[2] + gone[2]);
          samples.add(s);
          progress.accept(s);
          next += sampleEvery.toNanos();
        }
        Thread.sleep(200);
      }
      totals = totals(fleet, fleet.names());
      warnings = fleet.warnings();
      atOracle =
          (int) fleet.names().stream().map(fleet::job).filter(FleetBenchmark::atOracle).count();
    }
    // Slopes through the means of whole cycles after the first: start-up (class loading, pools
    // filling) is not a leak, and the load's saw-tooth within a cycle is not growth.
    double cycle = cycle(demandPeriod, churnEvery).toSeconds();
    double end = length.toSeconds();
    return new Result(
        jobs,
        length.toSeconds() / 60.0,
        demandPeriod.toSeconds(),
        cycle,
        samples,
        slope(samples, Sample::heapAfterGcMiB, cycle, end),
        slope(samples, s -> s.threads(), cycle, end),
        slope(samples, s -> s.openConnections(), cycle, end),
        slope(samples, s -> s.eventEntries(), cycle, end),
        slope(samples, s -> s.metricSeries(), cycle, end),
        replaced,
        totals[0] + gone[0],
        totals[1] + gone[1],
        totals[2] + gone[2],
        warnings,
        atOracle,
        EVENT_TTL.toSeconds());
  }

  /** Decisions, applied rescales and problems of {@code names}, from the operator's metrics. */
  private static long[] totals(Fleet fleet, List<String> names) {
    long[] t = new long[3];
    for (String name : names) {
      var f = fleet.figures(name);
      t[0] += (long) f.decisions();
      t[1] += (long) f.appliedRescales();
      t[2] += (long) f.errors();
    }
    return t;
  }

  private static double slope(
      List<Sample> samples, ToDoubleFunction<Sample> value, double cycle, double end) {
    return Slopes.perHourOverCycles(samples, Sample::seconds, value, cycle, cycle, end);
  }
}
