package io.ds2.core.window;

/** Which clock measured a vertex's window. */
public enum TimeBase {
  /**
   * Flink's task time: per subtask, busy + idle + back-pressured time advances with wall time and
   * is read in the same metric refresh as the counters, so it times the window exactly.
   */
  TASK_TIME,
  /** Local receive time of the polls; off by up to one poll interval at each end. */
  POLL_TIME
}
