package io.ds2.core.scaler;

import java.util.Map;

/** One observation of a rescale in flight. */
public sealed interface RescaleStatus {
  /**
   * Not there yet.
   *
   * @param up every vertex of the job is RUNNING (at whatever parallelism): a poll that sees it
   *     down starts the measured downtime
   * @param running the parallelism running now, empty if not all of it runs
   * @param waitingFor what the rescale waits for, in a few words (for a timeout's message)
   */
  record Pending(boolean up, Map<String, Integer> running, String waitingFor)
      implements RescaleStatus {}

  /** Every vertex runs at the wanted parallelism. */
  record Applied(Map<String, Integer> parallelism) implements RescaleStatus {}

  /** Someone else changed what ds2 asked for while it was being applied; ds2 does not fight. */
  record ChangedByOthers(String message) implements RescaleStatus {}

  /** The job ended or its resource was deleted while rescaling, or polling it failed. */
  record Failed(String message) implements RescaleStatus {}
}
