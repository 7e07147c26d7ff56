package io.ds2.core.window;

/**
 * Why no window can be formed from the samples at hand. Some problems only mean "not yet" (keep
 * polling); others invalidate what was collected so far.
 */
public enum WindowProblem {
  /** Fewer than two distinct metric updates so far. */
  TOO_FEW_SAMPLES(false),
  /** The samples span less than the configured window. */
  TOO_SHORT(false),
  /** The job (re)started too recently; its first metrics are start-up artefacts. */
  WARMING_UP(false),
  /**
   * The job restarted behind its sources' heads (from a checkpoint, with a backlog) and they have
   * not caught up yet: what they read is the backlog, not what arrives.
   */
  CATCHING_UP(false),
  /** The job is not RUNNING, or a vertex is not RUNNING. */
  JOB_NOT_RUNNING(true),
  /** The job restarted or was rescaled inside the window; counters were reset. */
  RESTARTED(true),
  /** A vertex or subtask is missing from a sample, or the graph changed. */
  PARTIAL_METRICS(true),
  /** A counter Flink must report is missing or NaN. */
  METRIC_MISSING(true),
  /**
   * Records in/out, idle or back-pressured time went down: the task restarted, even if the job did
   * not say so. (Busy time is derived by Flink and falls when a stall is accounted; it is never
   * taken as a restart.)
   */
  COUNTER_DECREASED(true);

  private final boolean invalidatesSamples;

  WindowProblem(boolean invalidatesSamples) {
    this.invalidatesSamples = invalidatesSamples;
  }

  /** True if the samples collected so far must be dropped and collection started again. */
  public boolean invalidatesSamples() {
    return invalidatesSamples;
  }
}
