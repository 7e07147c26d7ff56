package io.ds2.experiments.bench.controllers;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.DecisionPolicy;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.experiments.bench.BenchController;
import io.ds2.experiments.bench.TimedPolicy;
import io.ds2.flink.JobSampler;
import io.ds2.flink.Sleeper;
import io.ds2.loop.ControlLoop;
import io.ds2.loop.EventSink;
import io.ds2.recording.Recorded;
import io.ds2.recording.RecordingListener;
import io.ds2.render.DecisionJson;
import io.ds2.render.DecisionSummary;
import java.util.function.Supplier;

/**
 * A controller made of ds2's loop (collector, DS2 model) and a policy: ds2's own, or a baseline's.
 * Decisions go into the run's recording; rescales through the shared rescaler.
 */
public final class LoopController implements BenchController {
  private final String name;
  private final Supplier<DecisionPolicy> policy;

  public LoopController(String name, Supplier<DecisionPolicy> policy) {
    this.name = name;
    this.policy = policy;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public double targetUtilization() {
    return policy.get().options().targetUtilization();
  }

  @Override
  public java.util.Map<String, String> options() {
    return policy.get().options().asMap();
  }

  @Override
  public void run(Context c) throws Exception {
    DecisionPolicy timed = new TimedPolicy(policy.get(), c.timer());
    ControlLoop loop =
        new ControlLoop(
            new JobSampler(c.rest(), c.jobId(), c.clock()),
            timed,
            c.rescaler().actuator(),
            Mode.ACT,
            DemandScenario.measured().withSourceSplits(c.sourceSplits()),
            EventSink.all(new DecisionRecorder(c), c.rescaler().outcomes()),
            Sleeper.SYSTEM,
            c.clock());
    loop.run(() -> !Thread.currentThread().isInterrupted(), Long.MAX_VALUE);
  }

  /**
   * Writes each decision, and the forecast it was made with, into the run's recording (rescales are
   * written by the rescaler).
   */
  private record DecisionRecorder(Context c) implements EventSink {
    private void decided(JobTopology t, Decision d, Mode mode) {
      c.recording()
          .write(
              new Recorded.Event(
                  d.time(),
                  "decision",
                  DecisionSummary.decision(d, mode),
                  DecisionJson.decision(t, d, mode)));
    }

    @Override
    public void on(JobTopology topology, ScalerEvent event) {
      if (event instanceof ScalerEvent.Decided d) {
        decided(topology, d.decision(), d.mode());
      } else if (event instanceof ScalerEvent.Forecasted f) {
        c.recording().write(RecordingListener.forecast(topology, f, c.clock().instant()));
      }
    }
  }
}
