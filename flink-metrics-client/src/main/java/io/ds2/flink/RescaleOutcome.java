package io.ds2.flink;

import java.time.Duration;
import java.util.Map;

/** What happened to a rescale request, as Flink's job details showed it. */
public sealed interface RescaleOutcome {
  /** The job runs at the requested parallelism; {@code took} = request to all vertices RUNNING. */
  record Applied(Map<String, Integer> parallelism, Duration took) implements RescaleOutcome {}

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
