package io.ds2.controller.loop;

import io.ds2.model.policy.Decision;
import io.ds2.model.scaler.JobTopology;
import io.ds2.model.scaler.Mode;
import io.ds2.model.scaler.RescaleOutcome;
import io.ds2.model.scaler.ScalerEvent;
import io.ds2.model.window.WindowProblem;
import java.time.Duration;
import java.util.Map;

/**
 * A sink of one job's scaler events (decision log, stdout summary, demo table, Kubernetes events,
 * metrics, recordings), told the job's topology so it can name vertices.
 */
public interface LoopListener {
  void decided(JobTopology topology, Decision decision, Mode mode);

  /** A rescale was carried out (or not); a listener interested only in decisions ignores it. */
  default void rescaled(
      JobTopology topology, Map<String, Integer> requested, RescaleOutcome outcome) {}

  /** Something went wrong but the loop goes on (transient REST failure, mode change). */
  default void problem(ScalerEvent.Problem problem) {}

  /** A window is filling. */
  default void waiting(Duration collected, Duration wanted, String status) {}

  /** The samples so far were dropped and collection starts again. */
  default void samplesDropped(WindowProblem problem, String detail) {}

  /** Calls every listener in turn. */
  static LoopListener all(LoopListener... listeners) {
    return new LoopListener() {
      @Override
      public void decided(JobTopology t, Decision d, Mode m) {
        for (LoopListener l : listeners) {
          l.decided(t, d, m);
        }
      }

      @Override
      public void rescaled(JobTopology t, Map<String, Integer> r, RescaleOutcome o) {
        for (LoopListener l : listeners) {
          l.rescaled(t, r, o);
        }
      }

      @Override
      public void problem(ScalerEvent.Problem p) {
        for (LoopListener l : listeners) {
          l.problem(p);
        }
      }

      @Override
      public void waiting(Duration c, Duration w, String s) {
        for (LoopListener l : listeners) {
          l.waiting(c, w, s);
        }
      }

      @Override
      public void samplesDropped(WindowProblem p, String detail) {
        for (LoopListener l : listeners) {
          l.samplesDropped(p, detail);
        }
      }
    };
  }
}
