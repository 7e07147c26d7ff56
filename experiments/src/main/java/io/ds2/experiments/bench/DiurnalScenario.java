package io.ds2.experiments.bench;

import io.ds2.workloads.SampleJobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Recurring load for the forecast (issue 33): the fan-in job (chained, its Join keyed) over
 * compressed days of {@link #DAY_SECONDS}: night at half the base rate, a morning ramp to the base
 * rate, a lunch peak at one and a half times it, back, and an evening ramp down; every minute off
 * the ramps a few percent of noise (seeded: every run sees the same trace). Kafka-fed, run on its
 * own ({@code --scenarios diurnal}); the forecast can act from the third day (a day to learn from,
 * one to test it on).
 */
final class DiurnalScenario {
  /** One compressed day: 20 minutes. */
  static final int DAY_SECONDS = 20 * 60;

  static final int DAYS = 4;

  /**
   * A forecast may act from the third day: one day to learn from, one held out to test it on.
   * Judged from then on too ({@link Scenario#learnedFromSeconds}).
   */
  static final double LEARNED_FROM_SECONDS = 2.0 * DAY_SECONDS;

  /** Noise around a level, as a share of it (uniform, either way). */
  static final double NOISE = 0.05;

  private DiurnalScenario() {}

  /** (minute of the day it starts at, level, minutes it ramps over) of each part of a day. */
  private static final double[][] DAY = {
    {0, 0.5, 0}, // night
    {6, 1.0, 2}, // morning ramp, 6 to 8
    {10, 1.5, 1}, // lunch peak, 10 to 11
    {12, 1.0, 1}, // back by 13
    {14, 0.5, 1}, // evening, down by 15
  };

  static Scenario diurnal() {
    Random noise = new Random(33);
    List<Scenario.Phase> phases = new ArrayList<>();
    for (int day = 0; day < DAYS; day++) {
      for (int part = 0; part < DAY.length; part++) {
        double from = DAY[part][0];
        double to = part + 1 < DAY.length ? DAY[part + 1][0] : DAY_SECONDS / 60.0;
        double level = DAY[part][1];
        double at = day * DAY_SECONDS + from * 60;
        phases.add(new Scenario.Phase(at, level, DAY[part][2] * 60));
        // Each minute after the ramp, the level give or take the noise.
        for (double m = from + Math.max(1, DAY[part][2]); m < to; m++) {
          double jitter = 1 + NOISE * (2 * noise.nextDouble() - 1);
          phases.add(new Scenario.Phase(day * DAY_SECONDS + m * 60, level * jitter));
        }
      }
    }
    return new Scenario(
        "diurnal",
        "fan-in job from parallelism 1 over "
            + DAYS
            + " compressed days of 20 min: night x0.5, morning ramp to x1 (min 6-8), lunch x1.5"
            + " (10-11, back by 13), evening x0.5 (14-15); 5 % noise a minute",
        SampleJobs.ordersAndPayments(),
        phases,
        Duration.ofSeconds((long) DAYS * DAY_SECONDS),
        Scenario.SLOTS_PER_TASK_MANAGER,
        LEARNED_FROM_SECONDS);
  }
}
