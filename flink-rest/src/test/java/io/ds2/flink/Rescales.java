package io.ds2.flink;

import io.ds2.core.scaler.Actuator;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.RescaleRun;
import io.ds2.core.scaler.ScalerAction;
import io.ds2.core.scaler.ScalerInput;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** Carries one rescale through an actuator to its outcome, as the loop does, on real time. */
final class Rescales {
  private Rescales() {}

  static RescaleOutcome run(Actuator actuator, Map<String, Integer> target, Duration timeout)
      throws InterruptedException {
    RescaleRun run = new RescaleRun(target, Instant.now(), timeout, actuator.pollInterval());
    ScalerAction action = run.request();
    while (true) {
      Duration wait = Duration.between(Instant.now(), action.at());
      if (!wait.isNegative()) {
        Sleeper.SYSTEM.sleep(wait); // the actuator's poll interval, as the loop waits it
      }
      ScalerInput input;
      if (action instanceof ScalerAction.Request r) {
        input = new ScalerInput.Answered(actuator.request(r.target()));
      } else if (action instanceof ScalerAction.Observe o) {
        input = new ScalerInput.Observed(actuator.observe(o.wanted()));
      } else {
        ScalerAction.Abandon a = (ScalerAction.Abandon) action;
        input = new ScalerInput.Abandoned(actuator.abandon(a.wanted(), a.last(), a.timeout()));
      }
      RescaleRun.Next next = run.take(input, Instant.now());
      if (next.outcome().isPresent()) {
        return next.outcome().get();
      }
      action = next.action().orElseThrow();
    }
  }
}
