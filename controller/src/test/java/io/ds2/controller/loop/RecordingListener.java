package io.ds2.controller.loop;

import io.ds2.model.policy.Decision;
import io.ds2.model.scaler.JobTopology;
import io.ds2.model.scaler.Mode;
import io.ds2.model.scaler.RescaleOutcome;
import io.ds2.model.scaler.ScalerEvent;
import io.ds2.model.window.WindowProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Keeps everything the loop reported, for assertions. */
class RecordingListener implements LoopListener {
  final List<Decision> decisions = new ArrayList<>();
  final List<RescaleOutcome> rescales = new ArrayList<>();
  final List<String> problems = new ArrayList<>();
  final List<WindowProblem> dropped = new ArrayList<>();

  @Override
  public synchronized void decided(JobTopology t, Decision d, Mode mode) {
    decisions.add(d);
    System.out.println("decision " + io.ds2.controller.render.DecisionSummary.decision(d, mode));
  }

  @Override
  public synchronized void rescaled(JobTopology t, Map<String, Integer> r, RescaleOutcome o) {
    rescales.add(o);
    System.out.println("rescale " + io.ds2.controller.render.DecisionSummary.rescale(o));
  }

  @Override
  public synchronized void problem(ScalerEvent.Problem p) {
    problems.add(p.text());
  }

  @Override
  public synchronized void samplesDropped(WindowProblem problem, String detail) {
    dropped.add(problem);
  }
}
