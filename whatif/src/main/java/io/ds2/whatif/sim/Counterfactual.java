package io.ds2.whatif.sim;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.scaler.JobScaler;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.ScalerAction;
import io.ds2.core.scaler.StateStore;
import io.ds2.loop.EventSink;
import io.ds2.loop.JobDriver;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The recorded demand run again on the job learnt from the recording, under ds2's loop with {@code
 * options} acting (the real core, model, policy and forecast; only the job is simulated): what
 * would have happened had ds2 run it so.
 */
public final class Counterfactual {
  private Counterfactual() {}

  /** Runs {@code job} from its first window to its last under {@code options}. */
  public static Outcome run(LearnedJob job, Ds2Options options, EventSink listener) {
    SimulatedJob sim = new SimulatedJob(job);
    SimClock clock = new SimClock(sim);
    JobDriver driver =
        new JobDriver(
            sim,
            new JobScaler(
                new ScalingPolicy(options),
                DemandScenario.measured(),
                Mode.ACT,
                sim.pollInterval()),
            sim,
            StateStore.inMemory(),
            listener,
            clock);
    ScalerAction next = driver.start();
    Instant end = job.end();
    while (!(next instanceof ScalerAction.Stop)) {
      Instant at = next.at().isAfter(sim.now()) ? next.at() : sim.now();
      if (at.isAfter(end)) {
        break;
      }
      sim.advanceTo(at);
      next = driver.advance(next);
    }
    sim.advanceTo(end);
    return sim.outcome();
  }

  /** The simulation's time: it moves only as the job is run forward. */
  private static final class SimClock extends Clock {
    private final SimulatedJob sim;

    SimClock(SimulatedJob sim) {
      this.sim = sim;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return sim.now();
    }
  }
}
