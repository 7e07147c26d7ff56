package io.ds2.flink;

/**
 * A failure talking to Flink's REST API. The message is one line naming the URL and what was wrong;
 * {@link #kind()} lets callers react by type.
 */
public final class FlinkRestException extends RuntimeException {
  /** What went wrong. */
  public enum Kind {
    /** Connection refused, unknown host, TLS failure. */
    UNREACHABLE,
    /** No complete answer within the configured timeout. */
    TIMEOUT,
    /** A non-2xx HTTP status. */
    HTTP_STATUS,
    /** The body is not the JSON expected (HTML, truncated, wrong shape). */
    MALFORMED_RESPONSE,
    /** No job matches what the user asked for. */
    JOB_NOT_FOUND,
    /** Several jobs match; the message lists them. */
    JOB_AMBIGUOUS,
    /** The job exists but is not RUNNING. */
    JOB_NOT_RUNNING,
    /** Metrics needed for a decision are missing, NaN, or never settle. */
    METRICS_UNAVAILABLE
  }

  private final Kind kind;

  public FlinkRestException(Kind kind, String message) {
    this(kind, message, null);
  }

  public FlinkRestException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
