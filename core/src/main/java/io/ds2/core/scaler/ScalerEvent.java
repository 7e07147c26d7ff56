package io.ds2.core.scaler;

import io.ds2.core.forecast.Outlook;
import io.ds2.core.policy.Decision;
import io.ds2.core.window.WindowProblem;
import java.time.Duration;
import java.util.Map;

/** What the scaler core reports to its sinks (logs, tables, events, metrics, recordings). */
public sealed interface ScalerEvent {
  /** A window is filling. */
  record Waiting(Duration collected, Duration wanted, String status) implements ScalerEvent {}

  /** The samples so far were dropped (restart, state change, ...) and collection starts again. */
  record SamplesDropped(WindowProblem problem, String detail) implements ScalerEvent {}

  /**
   * What the forecast says at a window ({@code forecast: advise} or {@code act}), before it is
   * decided on.
   *
   * @param measuredNeed every vertex's parallelism for the measured demand (by vertex id)
   * @param wouldNeed every vertex's parallelism for the forecast demand (by vertex id; never below
   *     the measured need), empty with no forecast or none above the measured demand
   * @param acted whether the decision sizes for it ({@code act}) or it is shown only
   */
  record Forecasted(
      Outlook outlook,
      Map<String, Integer> measuredNeed,
      Map<String, Integer> wouldNeed,
      boolean acted)
      implements ScalerEvent {}

  /** A clean window was decided on. */
  record Decided(Decision decision, Mode mode) implements ScalerEvent {}

  /** A rescale was carried out, or not. */
  record Rescaled(Map<String, Integer> requested, RescaleOutcome outcome) implements ScalerEvent {}

  /**
   * Something went wrong; the loop goes on.
   *
   * @param retryIn when the loop tries again (zero: it goes on at once)
   */
  record Problem(Kind kind, String message, Duration retryIn) implements ScalerEvent {
    /** The message, and when the loop tries again, in one line. */
    public String text() {
      return retryIn.isZero() ? message : message + "; retrying in " + retryIn.toSeconds() + " s";
    }

    /** What went wrong. */
    public enum Kind {
      /** No clean window formed in time (missing, NaN or never-settling metrics). */
      NO_CLEAN_WINDOW,
      /** Reading the job's metrics failed (REST unreachable, a bad answer, ...). */
      SAMPLING_FAILED,
      /** The cluster cannot rescale the job: from now on decisions are advice only. */
      NOW_ADVISING,
      /** A setting names what the job does not have (a source-splits vertex): it is ignored. */
      SETTING_IGNORED,
      /**
       * The job restarted repeatedly after a rescale, within its timeout: the parallelism from
       * before is put back and the loop backs off.
       */
      ROLLED_BACK
    }
  }
}
