package io.ds2.model.window;

import java.util.OptionalDouble;

/**
 * Raw cumulative counters of one subtask as Flink reported them at one poll. A metric Flink did not
 * report (or reported as NaN) is empty, never 0.
 */
public record SubtaskSample(
    int subtask,
    OptionalDouble recordsIn,
    OptionalDouble recordsOut,
    OptionalDouble busyTimeMs,
    OptionalDouble idleTimeMs,
    OptionalDouble backPressuredTimeMs) {

  /** A subtask with every counter present; convenient for tests and simulations. */
  public static SubtaskSample of(
      int subtask, double recordsIn, double recordsOut, double busyMs, double idleMs, double bpMs) {
    return new SubtaskSample(
        subtask,
        OptionalDouble.of(recordsIn),
        OptionalDouble.of(recordsOut),
        OptionalDouble.of(busyMs),
        OptionalDouble.of(idleMs),
        OptionalDouble.of(bpMs));
  }

  public OptionalDouble get(Counter counter) {
    return switch (counter) {
      case RECORDS_IN -> recordsIn;
      case RECORDS_OUT -> recordsOut;
      case BUSY_TIME_MS -> busyTimeMs;
      case IDLE_TIME_MS -> idleTimeMs;
      case BACK_PRESSURED_TIME_MS -> backPressuredTimeMs;
    };
  }

  /** The cumulative per-subtask counters a window is built from. */
  public enum Counter {
    RECORDS_IN("numRecordsIn"),
    RECORDS_OUT("numRecordsOut"),
    BUSY_TIME_MS("accumulateBusyTimeMs"),
    IDLE_TIME_MS("accumulateIdleTimeMs"),
    BACK_PRESSURED_TIME_MS("accumulateBackPressuredTimeMs");

    private final String flinkName;

    Counter(String flinkName) {
      this.flinkName = flinkName;
    }

    /** The task-level metric name in Flink's REST API. */
    public String flinkName() {
      return flinkName;
    }
  }
}
