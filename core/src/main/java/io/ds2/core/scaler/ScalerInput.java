package io.ds2.core.scaler;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.policy.SlotCapacity;
import io.ds2.core.window.JobSample;

/** What the driver brings back from doing what the core asked ({@link ScalerAction}). */
public sealed interface ScalerInput {
  /**
   * A poll of every vertex of {@code graph}, and how many slots the job can get (read at the start
   * of each window).
   */
  record Sampled(JobGraph graph, JobSample sample, SlotCapacity capacity) implements ScalerInput {
    public Sampled(JobGraph graph, JobSample sample) {
      this(graph, sample, SlotCapacity.unknown());
    }
  }

  /** The poll failed in a way that may pass. */
  record SampleFailed(String message) implements ScalerInput {}

  /** The job is gone or no longer runs ({@link SourceFailure#jobGone()}): its loop is over. */
  record JobGone(String why) implements ScalerInput {}

  /** The answer to {@link ScalerAction.Request}. */
  record Answered(RequestResult result) implements ScalerInput {}

  /** The answer to {@link ScalerAction.Observe}. */
  record Observed(RescaleStatus status) implements ScalerInput {}

  /**
   * {@link ScalerAction.Abandon} was carried out; {@code message} says what was wanted and runs.
   */
  record Abandoned(String message) implements ScalerInput {}
}
