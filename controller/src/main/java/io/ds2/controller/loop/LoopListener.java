package io.ds2.controller.loop;

import io.ds2.flink.JobTopology;
import io.ds2.flink.RescaleOutcome;
import io.ds2.flink.WindowCollector;
import io.ds2.model.policy.Decision;
import java.util.Map;

/** Sinks of the loop's events: decision log, stdout summary, demo table, (later) K8s events. */
public interface LoopListener extends WindowCollector.Listener {
  void decided(JobTopology topology, Decision decision, ControlLoop.Mode mode);

  /** A rescale was carried out (or not); a listener interested only in decisions ignores it. */
  default void rescaled(
      JobTopology topology, Map<String, Integer> requested, RescaleOutcome outcome) {}

  /** Something went wrong but the loop goes on (transient REST failure, mode change). */
  default void problem(String message) {}

  @Override
  default void waiting(java.time.Duration collected, java.time.Duration wanted, String status) {}

  @Override
  default void samplesDropped(io.ds2.model.window.WindowProblem problem, String detail) {}

  /** Calls every listener in turn. */
  static LoopListener all(LoopListener... listeners) {
    return new LoopListener() {
      @Override
      public void decided(JobTopology t, Decision d, ControlLoop.Mode m) {
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
      public void problem(String message) {
        for (LoopListener l : listeners) {
          l.problem(message);
        }
      }

      @Override
      public void waiting(java.time.Duration c, java.time.Duration w, String s) {
        for (LoopListener l : listeners) {
          l.waiting(c, w, s);
        }
      }

      @Override
      public void samplesDropped(io.ds2.model.window.WindowProblem p, String detail) {
        for (LoopListener l : listeners) {
          l.samplesDropped(p, detail);
        }
      }
    };
  }
}
