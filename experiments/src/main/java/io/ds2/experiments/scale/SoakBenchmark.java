package io.ds2.experiments.scale;

import io.ds2.model.options.Ds2Options;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * ds2's loops driving many simulated jobs for a long time, their demand switching between x1 and
 * x1.5 so that every job keeps rescaling: heap after GC, live threads and open REST connections are
 * sampled throughout and must stay flat (a leak shows as a slope).
 */
public final class SoakBenchmark {
  /** One reading, {@code seconds} into the run. */
  public record Sample(
      double seconds,
      double heapAfterGcMiB,
      int threads,
      int openConnections,
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
      long decisions,
      long rescales,
      long problems,
      int jobsAtOracle) {}

  /** The fleet's options with a 30 s scale-down delay, so every demand switch rescales. */
  public static final java.util.Map<String, String> OPTIONS = options();

  private static java.util.Map<String, String> options() {
    java.util.Map<String, String> m = new java.util.HashMap<>(FleetBenchmark.OPTIONS);
    m.put(Ds2Options.SCALE_DOWN_DELAY, "30s");
    return java.util.Map.copyOf(m);
  }

  private SoakBenchmark() {}

  /**
   * @param progress told each sample as it is taken
   */
  public static Result run(
      int jobs,
      Duration length,
      Duration sampleEvery,
      Duration demandPeriod,
      Consumer<Sample> progress)
      throws Exception {
    List<Sample> samples = new ArrayList<>();
    long t0 = System.nanoTime();
    int atOracle;
    long decisions;
    long rescales;
    long problems;
    try (Fleet fleet = new Fleet(jobs, Ds2Options.fromMap(OPTIONS))) {
      fleet.start();
      long next = sampleEvery.toNanos();
      long nextSwitch = demandPeriod.toNanos();
      double factor = 1;
      while (System.nanoTime() - t0 < length.toNanos()) {
        long now = System.nanoTime() - t0;
        if (now >= nextSwitch) {
          factor = factor == 1 ? 1.5 : 1;
          fleet.scaleDemand(factor);
          nextSwitch += demandPeriod.toNanos();
        }
        if (now >= next) {
          System.gc();
          Sample s =
              new Sample(
                  now / 1e9,
                  ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0,
                  ManagementFactory.getThreadMXBean().getThreadCount(),
                  fleet.openConnections(),
                  fleet.decisions.get(),
                  fleet.rescales.get(),
                  fleet.problems.get());
          samples.add(s);
          progress.accept(s);
          next += sampleEvery.toNanos();
        }
        Thread.sleep(200);
      }
      decisions = fleet.decisions.get();
      rescales = fleet.rescales.get();
      problems = fleet.problems.get();
      atOracle = (int) fleet.jobs().stream().filter(FleetBenchmark::atOracle).count();
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
        decisions,
        rescales,
        problems,
        atOracle);
  }

  private static double slopePerHour(
      List<Sample> samples, java.util.function.ToDoubleFunction<Sample> value) {
    SimpleRegression r = new SimpleRegression();
    samples.forEach(s -> r.addData(s.seconds(), value.applyAsDouble(s)));
    return samples.size() < 2 ? 0 : r.getSlope() * 3600;
  }
}
