package io.ds2.core.scaler;

/** Whether a job's decisions are carried out. */
public enum Mode {
  /** Rescale when the policy says so. */
  ACT,
  /** Decide and report, never rescale (asked for by the user). */
  DRY_RUN,
  /** Decide and report only, because the cluster cannot rescale this job. */
  ADVISOR
}
