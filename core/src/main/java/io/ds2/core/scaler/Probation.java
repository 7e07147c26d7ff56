package io.ds2.core.scaler;

import io.ds2.core.window.JobSample;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A rescale that applied, watched until {@code rescale-timeout} after its request: a job that
 * restarts repeatedly at the new parallelism (out of memory with smaller slots, state that does not
 * fit, a connector that fails at that many readers) did not really take the rescale, and is rolled
 * back to the parallelism it ran at before. The Flink autoscaler has no rollback (FLINK-37411).
 * Restarts are counted from the job's own {@code numRestarts}, from the first poll after the
 * rescale applied (the rescale's own restart is not one of them).
 */
final class Probation {
  /** Restarts after a rescale, within its timeout, that roll it back. */
  static final int RESTARTS_TO_ROLL_BACK = 2;

  private final Map<String, Integer> before;
  private final Map<String, Integer> target;
  private final Instant until;
  private long baseline = -1;

  /**
   * @param before the parallelism the job ran at before the rescale
   * @param target the parallelism the rescale applied
   * @param until the end of the watch: the request's time plus {@code rescale-timeout}
   */
  Probation(Map<String, Integer> before, Map<String, Integer> target, Instant until) {
    this.before = Map.copyOf(before);
    this.target = Map.copyOf(target);
    this.until = until;
  }

  /** Whether the watch is over at {@code now}. */
  boolean over(Instant now) {
    return now.isAfter(until);
  }

  /**
   * Takes one poll; returns why to roll back, if the job restarted {@link #RESTARTS_TO_ROLL_BACK}
   * times since the rescale applied.
   */
  Optional<String> take(JobSample sample) {
    if (sample.restarts().isEmpty()) {
      return Optional.empty();
    }
    long restarts = sample.restarts().getAsLong();
    if (baseline < 0 || restarts < baseline) {
      baseline = restarts; // the first poll after the rescale, or a counter that started over
      return Optional.empty();
    }
    long since = restarts - baseline;
    if (since < RESTARTS_TO_ROLL_BACK) {
      return Optional.empty();
    }
    return Optional.of(
        "the job restarted "
            + since
            + " times since its rescale to "
            + new java.util.TreeMap<>(target)
            + " applied; rolling back to "
            + new java.util.TreeMap<>(before)
            + " and backing off");
  }

  Map<String, Integer> before() {
    return before;
  }
}
