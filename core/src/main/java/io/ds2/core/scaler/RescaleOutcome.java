package io.ds2.core.scaler;

import java.time.Duration;
import java.util.Map;

/**
 * What became of a rescale request, as the job showed it. Every sink reacts by type, never text.
 */
public sealed interface RescaleOutcome {
  /** The outcome as one lower-case label (metrics, logs). */
  Kind kind();

  /** The outcomes by name, for labels. */
  enum Kind {
    APPLIED,
    NOT_APPLIED,
    UNSUPPORTED,
    FAILED;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The job runs at the requested parallelism.
   *
   * @param took from the request to every vertex RUNNING at the new parallelism
   * @param downtime an upper bound of the time the job was down, measured by polling: from the
   *     first poll that saw the job or a vertex not RUNNING (or, if none did, the last poll that
   *     saw the old parallelism running) to the poll that saw all RUNNING again
   */
  record Applied(Map<String, Integer> parallelism, Duration took, Duration downtime)
      implements RescaleOutcome {
    @Override
    public Kind kind() {
      return Kind.APPLIED;
    }
  }

  /** Why a request was not applied. */
  enum Cause {
    /**
     * Accepted, but not running within the timeout (typically too few slots: the adaptive scheduler
     * ignores an unsatisfiable lower bound). Whatever would let it take effect later by surprise
     * was put back.
     */
    TIMED_OUT,
    /** Someone else (GitOps, a person) changed the parallelism overrides ds2 set; ds2 backs off. */
    CHANGED_BY_OTHERS,
    /**
     * Not requested: the Flink operator was still reconciling an earlier change. Nothing changed,
     * so there is nothing to back off from: the next window decides again.
     */
    BUSY
  }

  record NotApplied(
      Map<String, Integer> requested, Map<String, Integer> running, Cause cause, String message)
      implements RescaleOutcome {
    @Override
    public Kind kind() {
      return Kind.NOT_APPLIED;
    }
  }

  /** The cluster cannot rescale this job this way (e.g. not the adaptive scheduler). */
  record Unsupported(String message) implements RescaleOutcome {
    @Override
    public Kind kind() {
      return Kind.UNSUPPORTED;
    }
  }

  /** The request was refused or not answered, or the job ended while rescaling. */
  record Failed(String message) implements RescaleOutcome {
    @Override
    public Kind kind() {
      return Kind.FAILED;
    }
  }
}
