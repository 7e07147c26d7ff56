package io.ds2.core.estimate;

/** Why a vertex's recommendation is what it is, beyond the plain DS2 equation. */
public enum ReasonCode {
  /**
   * A source whose capacity cannot be measured keeps its parallelism: no usable busy time or no
   * records read reported (a legacy {@code SourceFunction}, NaN), or a chain that emitted nothing.
   */
  SOURCE_NOT_SCALED,
  /**
   * A source never runs more subtasks than it has splits (a subtask without one reads nothing):
   * capped at the split count; more partitions would let it scale further.
   */
  SOURCE_SPLIT_LIMIT,
  /**
   * A source that never waited for records (busy or held back all the time) has a backlog gauge
   * that cannot show what arrives (a Kafka consumer holds fetched records its lag does not count):
   * the job is given twice the capacity the source read at, a bounded step, until the gauge shows
   * the heads again; a smaller {@code max.partition.fetch.bytes} or a stated demand makes it exact.
   */
  SOURCE_LAG_HIDDEN,
  /**
   * A source that never waited for records emitted ever older ones since it was last at its heads:
   * what arrives, its read rate / (1 - the age's growth a second), is more than its backlog gauge
   * shows, and is what it is sized for.
   */
  SOURCE_ARRIVAL_FROM_RECORD_AGE,
  /** A source's split count is unknown: sized as if its input spread evenly, with no cap. */
  SOURCE_SPLITS_UNKNOWN,
  /**
   * A source's subtasks read unequal numbers of splits (or splits of unequal load): sized above
   * DS2's even-spread bound so that the busiest subtask keeps up.
   */
  UNEVEN_SPLITS,
  /** One split needs more than an instance: no parallelism fixes it; sized for the rest. */
  HOT_SPLIT,
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
  NO_DEMAND,
  /** Measured cost per record grows with parallelism; the learned cost curve sized the vertex. */
  EFFICIENCY_APPLIED,
  /** Per the learned cost curve, more instances cannot sustain the demand. */
  SCALING_NOT_PAYING_OFF,
  /** One step may not raise the parallelism by more than max-step-up. */
  STEP_LIMITED_UP,
  /** One step may not lower the parallelism by more than max-step-down. */
  STEP_LIMITED_DOWN,
  /** Rounded up to a divisor of the max parallelism for even key-group spread. */
  ALIGNED_TO_KEY_GROUPS,
  /** The scale-down is smaller than scale-down-threshold. */
  SCALE_DOWN_BELOW_THRESHOLD,
  /**
   * The scale-up is held: at its current parallelism the busiest subtask uses no more of the
   * headroom above the target utilization than scale-up-tolerance allows.
   */
  SCALE_UP_WITHIN_HEADROOM,
  /** Fewer windows than activation agree on the change so far. */
  ACTIVATING,
  /**
   * The activation windows all asked for a scale-up: the smallest of their recommendations is
   * taken, which may be below this window's.
   */
  ACTIVATION_SMALLEST,
  /**
   * A scale-down that waited out the delay goes to the highest recommendation since it began, which
   * may be above this window's.
   */
  SCALE_DOWN_TO_HIGHEST,
  /**
   * A scale-down that waited out the delay, where a forecast acts, goes to the highest
   * recommendation of the last activation windows rather than since it began: the forecast raises
   * the estimate a lead time before a return of the load it foresees.
   */
  SCALE_DOWN_TO_LATEST,
  /** The windows in the activation period disagree on the direction. */
  DIRECTION_UNSTABLE,
  /** Recommendations have not been lower for the whole scale-down delay yet. */
  SCALE_DOWN_DELAYED,
  /**
   * A scale-down whose delay ends before its vertex could act again on its own (a warm-up and the
   * activation windows after the restart) joins a rescale of other vertices made now: one restart
   * instead of two.
   */
  SCALE_DOWN_JOINED,
  /**
   * A rescale would only lower vertices and free no task slot (each slot-sharing group keeps its
   * largest vertex): not worth a restart, the lower target is made with the next rescale needed.
   */
  NO_SLOT_FREED,
  /** A recent rescale was not applied by Flink; waiting before trying again. */
  BACKING_OFF,
  /** A source's load changed inside the window; the next (steady) window decides. */
  DEMAND_SHIFTED,
  /**
   * A saturated source drains its backlog within a window and every source reads more than arrives:
   * a scale-up for headroom waits for the next window, once (a mid-drain window reads arrivals
   * least surely).
   */
  DRAINING,
  /** Some vertex could not be estimated; nothing is changed on partial information. */
  ESTIMATE_INCOMPLETE,
  /**
   * The job falls behind although every vertex is sized and no subtask is saturated: busy time
   * overstates its capacity, and the next windows are sized for a lower utilization.
   */
  CAPACITY_SHORTFALL,
  /**
   * The input spreads unevenly over the subtasks (key-group ranges, key skew): sized above DS2's
   * even-spread bound so that the busiest subtask keeps up.
   */
  UNEVEN_INPUT,
  /** One key group needs more than an instance: no parallelism fixes it; sized for the rest. */
  HOT_KEY_GROUP,
  /** A keyed vertex seen only at parallelism 1: its spread over key groups is not known yet. */
  KEY_SPREAD_UNKNOWN,
  /**
   * A FORWARD or RESCALE input from a vertex at another parallelism: Flink connects it pointwise,
   * so subtasks read unequal numbers of the producer's subtasks; raised so the busiest keeps up.
   */
  POINTWISE_INPUT,
  /**
   * The job can get fewer task slots than the target asks (the cluster's free slots and those it
   * holds, or a configured limit; the job needs its largest vertex per slot-sharing group, summed):
   * capped there, so ds2 never asks for what cannot run.
   */
  SLOT_LIMIT,
  /**
   * The forecast demand within the lead time (the job's rescale time, a warm-up and the windows a
   * change must persist) needs more than the measured: raised ahead of it ({@code forecast: act};
   * never lowered).
   */
  FORECAST_AHEAD,
  /** Every vertex already runs at its target. */
  NO_CHANGE
}
