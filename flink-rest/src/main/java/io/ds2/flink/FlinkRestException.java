package io.ds2.flink;

import io.ds2.core.scaler.SourceFailure;

/**
 * A failure talking to Flink's REST API. The message is one line naming the URL and what was wrong;
 * {@link #kind()} lets callers react by type. It is the core's {@link SourceFailure}, so the loop
 * and the CLI never need this adapter's type.
 */
public final class FlinkRestException extends SourceFailure {
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
  private final int httpStatus;

  public FlinkRestException(Kind kind, String message) {
    this(kind, message, null);
  }

  public FlinkRestException(Kind kind, String message, Throwable cause) {
    super(failure(kind), message, cause);
    this.kind = kind;
    this.httpStatus = 0;
  }

  /** Flink answered with a non-2xx status. */
  public static FlinkRestException httpStatus(int status, String message) {
    return new FlinkRestException(status, message);
  }

  private FlinkRestException(int status, String message) {
    super(SourceFailure.Kind.UNAVAILABLE, message);
    this.kind = Kind.HTTP_STATUS;
    this.httpStatus = status;
  }

  /** The HTTP status Flink answered with, for {@link Kind#HTTP_STATUS}; else empty. */
  public java.util.OptionalInt httpStatus() {
    return kind == Kind.HTTP_STATUS
        ? java.util.OptionalInt.of(httpStatus)
        : java.util.OptionalInt.empty();
  }

  public Kind kind() {
    return kind;
  }

  private static SourceFailure.Kind failure(Kind kind) {
    return switch (kind) {
      case UNREACHABLE, TIMEOUT, HTTP_STATUS, MALFORMED_RESPONSE -> SourceFailure.Kind.UNAVAILABLE;
      case METRICS_UNAVAILABLE -> SourceFailure.Kind.METRICS_MISSING;
      case JOB_NOT_FOUND, JOB_AMBIGUOUS -> SourceFailure.Kind.JOB_NOT_FOUND;
      case JOB_NOT_RUNNING -> SourceFailure.Kind.JOB_NOT_RUNNING;
    };
  }
}
