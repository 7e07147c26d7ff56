package io.ds2.loop;

import io.ds2.core.scaler.Actuator;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.RescaleRun;
import io.ds2.core.scaler.ScalerAction;
import io.ds2.core.scaler.ScalerInput;
import io.ds2.flink.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/** Carrying out a rescale's actions through an actuator. */
public final class Rescales {
  private Rescales() {}

  /** Does one rescale action (request, observe, abandon) and returns its result for the core. */
  static ScalerInput perform(Actuator actuator, ScalerAction action) {
    if (action instanceof ScalerAction.Request r) {
      return new ScalerInput.Answered(actuator.request(r.target()));
    }
    if (action instanceof ScalerAction.Observe o) {
      return new ScalerInput.Observed(actuator.observe(o.wanted()));
    }
    if (action instanceof ScalerAction.Abandon a) {
      return new ScalerInput.Abandoned(actuator.abandon(a.wanted(), a.last(), a.timeout()));
    }
    throw new IllegalArgumentException("not a rescale action: " + action);
  }

  /**
   * One rescale from request to outcome on the calling thread, timed by the core's {@link
   * RescaleRun} (for controllers that rescale outside ds2's loop: the benchmark's baselines).
   */
  public static RescaleOutcome run(
      Actuator actuator,
      Map<String, Integer> target,
      Duration timeout,
      Clock clock,
      Sleeper sleeper)
      throws InterruptedException {
    RescaleRun run = new RescaleRun(target, clock.instant(), timeout, actuator.pollInterval());
    ScalerAction action = run.request();
    while (true) {
      Duration wait = Duration.between(clock.instant(), action.at());
      if (!wait.isNegative() && !wait.isZero()) {
        sleeper.sleep(wait);
      }
      RescaleRun.Next next = run.take(perform(actuator, action), clock.instant());
      if (next.outcome().isPresent()) {
        return next.outcome().get();
      }
      action = next.action().orElseThrow();
    }
  }
}
