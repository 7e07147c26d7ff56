package io.ds2.core.scaler;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** What the driver is to do next for one job, and when; it brings the result back as input. */
public sealed interface ScalerAction {
  /** When to do it (at once if in the past). */
  Instant at();

  /**
   * Poll the job's metrics.
   *
   * @param freshTopology read the job's topology first (a new window starts: the graph may have
   *     changed since the last one)
   */
  record Sample(Instant at, boolean freshTopology) implements ScalerAction {}

  /** Ask the actuator for {@code target}. */
  record Request(Instant at, Map<String, Integer> target) implements ScalerAction {}

  /** Observe the rescale in flight towards {@code wanted}. */
  record Observe(Instant at, Map<String, Integer> wanted) implements ScalerAction {}

  /** Give up on the rescale towards {@code wanted}: it did not show within {@code timeout}. */
  record Abandon(
      Instant at, Map<String, Integer> wanted, RescaleStatus.Pending last, Duration timeout)
      implements ScalerAction {}

  /** Nothing more to do for this job: it ended. */
  record Stop(Instant at, String why) implements ScalerAction {}
}
