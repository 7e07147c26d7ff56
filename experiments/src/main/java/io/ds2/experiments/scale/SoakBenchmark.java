package io.ds2.experiments.scale;

import io.ds2.core.options.Ds2Options;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.commons.math3.stat.regression.SimpleRegression;

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
      int jobsAtOracle) {}

  /** The fleet's options with a 30 s scale-down delay, so every demand switch rescales. */
  public static final java.util.Map<String, String> OPTIONS = options();

  private static java.util.Map<String, String> options() {
    java.util.Map<String, String> m = new java.util.HashMap<>(FleetBenchmark.OPTIONS);
    m.put(Ds2Options.SCALE_DOWN_DELAY, "30s");
    return java.util.Map.copyOf(m);
  }

  /** How long events de-duplicate in the soak (production: 30 min). */
  public static final Duration DEDUPE = Duration.ofMinutes(2);

  private SoakBenchmark() {}

  /**
   * @param progress told each sample as it is taken
   */
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
    // Events de-duplicate for 2 min instead of 30, so that a 10 min run shows them evicted.
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
    // Slopes after the first minute: start-up (class loading, pools filling) is not a leak.
    List<Sample> steady = samples.stream().filter(s -> s.seconds() >= 60).toList();
    return new Result(
        jobs,
        length.toSeconds() / 60.0,
        demandPeriod.toSeconds(),
        samples,
        slopePerHour(steady, Sample::heapAfterGcMiB),
        slopePerHour(steady, s -> s.threads()),
        slopePerHour(steady, s -> s.openConnections()),
        slopePerHour(steady, s -> s.eventEntries()),
        slopePerHour(steady, s -> s.metricSeries()),
        replaced,
        totals[0] + gone[0],
        totals[1] + gone[1],
        totals[2] + gone[2],
        warnings,
        atOracle);
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

  private static double slopePerHour(
      List<Sample> samples, java.util.function.ToDoubleFunction<Sample> value) {
    SimpleRegression r = new SimpleRegression();
    samples.forEach(s -> r.addData(s.seconds(), value.applyAsDouble(s)));
    return samples.size() < 2 ? 0 : r.getSlope() * 3600;
  }
}
