package io.ds2.flink;

import java.time.Duration;
import java.util.Map;

/** What happened to a rescale request, as Flink's job details showed it. */
public sealed interface RescaleOutcome {
  /**
   * The job runs at the requested parallelism.
   *
   * @param took from the request to every vertex RUNNING at the new parallelism
   * @param downtime an upper bound of the time the job was down, measured by polling: from the
   *     first poll that saw the job or a vertex not RUNNING (or, if none did, the last poll that
   *     saw the old parallelism running) to the poll that saw all RUNNING again
   */
  record Applied(Map<String, Integer> parallelism, Duration took, Duration downtime)
      implements RescaleOutcome {}

  /**
   * Flink accepted the request but did not run it within the timeout (typically too few slots: the
   * adaptive scheduler ignores an unsatisfiable lower bound). The previous requirements were put
   * back, so the request cannot take effect later by surprise.
   */
  record NotApplied(Map<String, Integer> requested, Map<String, Integer> running, String message)
      implements RescaleOutcome {}

  /** The cluster cannot rescale this job through REST (not the adaptive scheduler). */
  record Unsupported(String message) implements RescaleOutcome {}

  /** The request was refused, or the job ended while rescaling. */
  record Failed(String message) implements RescaleOutcome {}
}
