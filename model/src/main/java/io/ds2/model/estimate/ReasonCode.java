package io.ds2.model.estimate;

/** Why a vertex's recommendation is what it is, beyond the plain DS2 equation. */
public enum ReasonCode {
  /** Sources are never scaled; their output is the external demand. */
  SOURCE_NOT_SCALED,
  /** The equation asked for fewer instances than the configured minimum. */
  RAISED_TO_MIN_PARALLELISM,
  /** The equation asked for more than the configured maximum parallelism. */
  LIMITED_BY_MAX_PARALLELISM_OPTION,
  /** The equation asked for more than the vertex's max parallelism (key groups). */
  LIMITED_BY_VERTEX_MAX_PARALLELISM,
  /** Records were processed but no busy time accrued: capacity is beyond measurement. */
  BUSY_TIME_NOT_MEASURABLE,
  /** No records reached the vertex during the window although demand is expected. */
  NO_RECORDS_OBSERVED,
  /** An upstream vertex could not be estimated, so this vertex's input rate is unknown. */
  UPSTREAM_UNDETERMINED,
  /** Demand is zero: no input is expected. */
  NO_DEMAND
}
