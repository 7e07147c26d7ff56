package io.ds2.loop;

import io.ds2.core.policy.Decision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.core.window.WindowProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Keeps everything the loop reported, for assertions. */
class RecordingListener implements EventSink {
  final List<Decision> decisions = new ArrayList<>();
  final List<RescaleOutcome> rescales = new ArrayList<>();
  final List<String> problems = new ArrayList<>();
  final List<WindowProblem> dropped = new ArrayList<>();

  public synchronized void decided(JobTopology t, Decision d, Mode mode) {
    decisions.add(d);
    System.out.println("decision " + io.ds2.render.DecisionSummary.decision(d, mode));
  }

  public synchronized void rescaled(JobTopology t, Map<String, Integer> r, RescaleOutcome o) {
    rescales.add(o);
    System.out.println("rescale " + io.ds2.render.DecisionSummary.rescale(o));
  }

  public synchronized void problem(ScalerEvent.Problem p) {
    problems.add(p.text());
  }

  public synchronized void samplesDropped(WindowProblem problem, String detail) {
    dropped.add(problem);
  }

  /** A window is filling (a test may act on it). */
  public void waiting(java.time.Duration collected, java.time.Duration wanted, String status) {}

  @Override
  public void on(JobTopology t, ScalerEvent e) {
    if (e instanceof ScalerEvent.Decided d) {
      decided(t, d.decision(), d.mode());
    } else if (e instanceof ScalerEvent.Rescaled r) {
      rescaled(t, r.requested(), r.outcome());
    } else if (e instanceof ScalerEvent.Problem p) {
      problem(p);
    } else if (e instanceof ScalerEvent.Waiting w) {
      waiting(w.collected(), w.wanted(), w.status());
    } else if (e instanceof ScalerEvent.SamplesDropped d) {
      samplesDropped(d.problem(), d.detail());
    }
  }
}
