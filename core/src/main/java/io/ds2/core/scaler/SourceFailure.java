package io.ds2.core.scaler;

/**
 * Why a {@link MetricSource} (or the lookup of a job's ends) could not answer: the core's own
 * failure type, whatever the adapter behind the source. The driver retries what may pass and ends a
 * job's loop, as an outcome, on {@link #jobGone()}. Messages are one line naming what failed.
 */
public class SourceFailure extends RuntimeException {
  /** What kind of failure, as far as the loop is concerned. */
  public enum Kind {
    /** The source cannot be reached or answered badly; may pass. */
    UNAVAILABLE,
    /** Metrics a window needs are missing or NaN, or the graph changed under the poll. */
    METRICS_MISSING,
    /** No such job (any more). */
    JOB_NOT_FOUND,
    /** The job exists but does not run. */
    JOB_NOT_RUNNING
  }

  private final Kind failure;

  public SourceFailure(Kind failure, String message) {
    this(failure, message, null);
  }

  public SourceFailure(Kind failure, String message, Throwable cause) {
    super(message, cause);
    this.failure = failure;
  }

  public final Kind failure() {
    return failure;
  }

  /** The job cannot be polled again: it is gone or no longer runs. */
  public final boolean jobGone() {
    return failure == Kind.JOB_NOT_FOUND || failure == Kind.JOB_NOT_RUNNING;
  }
}
