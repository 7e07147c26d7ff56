package io.ds2.experiments.bench;

import io.ds2.experiments.bench.Scenario.Phase;
import io.ds2.workloads.SampleJobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs long enough for the Flink autoscaler at its defaults or its documented settings to act and
 * be measured: at its defaults it waits 5 min for the job to stabilize, then fills a 15 min metric
 * window before its first decision, so nothing short of 20 min shows it acting; at its documented
 * example (1 min stabilization, 5 min window) it decides 6 min after a (re)start at the earliest.
 * Kafka-fed only, run on their own ({@code --scenarios fanin-long}).
 */
public final class LongScenarios {
  private static final Duration FIFTEEN_MIN = Duration.ofMinutes(15);
  private static final Duration THIRTY_MIN = Duration.ofMinutes(30);

  private LongScenarios() {}

  /** Every long run, the 15-minute Nexmark queries included. */
  public static List<Scenario> all() {
    List<Scenario> all = new ArrayList<>(longRuns());
    all.addAll(nexmark15m());
    return List.copyOf(all);
  }

  /** The 30-minute runs and the diurnal benchmark. */
  public static List<Scenario> longRuns() {
    return List.of(fanInLong(), fanInStepUpLong(), nexmarkQ5Long(), DiurnalScenario.diurnal());
  }

  /**
   * Each Nexmark query of the suite ({@link Scenario#nexmark}: Q1, Q2, Q3, Q5, Q8, Q11, from
   * parallelism 8, Kafka-fed on 12 partitions) for 15 min: the Flink autoscaler at its documented
   * example can act twice (at 6 min, and 6 min after its first rescale), ds2 at its defaults
   * settles within minutes, and the last minutes are judged on the settled job. Named {@code
   * nexmark-q1-15m} and so on.
   */
  public static List<Scenario> nexmark15m() {
    return Scenario.nexmark().stream()
        .map(q -> q.lasting(q.name() + "-15m", q.description() + ", for 15 min", FIFTEEN_MIN))
        .toList();
  }

  /** Nexmark Q5 (keyed sliding-window count) from parallelism 8 for 30 min: oracle 17. */
  static Scenario nexmarkQ5Long() {
    Scenario q5 = Scenario.byName("nexmark-q5");
    return q5.lasting("nexmark-q5-long", q5.description() + ", for 30 min", THIRTY_MIN);
  }

  /**
   * The fan-in step-up with each phase 15 min long (the x2 step at 15 min): long enough for the
   * Flink autoscaler at its documented example settings (1 min stabilization, 5 min window) to act
   * twice in each phase.
   */
  static Scenario fanInStepUpLong() {
    return Scenario.fanInStepUp()
        .stretched(900.0 / 70)
        .lasting(
            "fanin-step-up-long",
            "fan-in job from parallelism 1; rate x2 at 15 min; 30 min",
            THIRTY_MIN);
  }

  /** Fan-in from parallelism 1 at its base rate for 30 min: oracle 3/1/4 throughout. */
  static Scenario fanInLong() {
    return new Scenario(
        "fanin-long",
        "fan-in job from parallelism 1 at x1 for 30 min: long enough for the Flink autoscaler at"
            + " its defaults (5 min stabilization, then a 15 min window) to act once and be"
            + " measured for 10 min",
        SampleJobs.ordersAndPayments(),
        List.of(new Phase(0, 1)),
        THIRTY_MIN);
  }
}
