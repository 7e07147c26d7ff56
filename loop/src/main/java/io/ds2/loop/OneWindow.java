package io.ds2.loop;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.scaler.Actuator;
import io.ds2.core.scaler.JobScaler;
import io.ds2.core.scaler.MetricSource;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.ScalerAction;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.core.scaler.StateStore;
import io.ds2.flink.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The loop's own pipeline for a single window ({@code recommend}, calibration): observed and
 * decided on in dry run, never acted on. A problem the loop would retry ends it instead.
 */
public final class OneWindow {
  private OneWindow() {}

  /** What one window came to. */
  public sealed interface Result {
    /** The window's estimate. */
    record Estimated(Estimate estimate) implements Result {}

    /**
     * No estimate: no clean window formed in time, polling failed, or the job ended; {@code why} is
     * one line.
     */
    record NoWindow(String why) implements Result {}
  }

  /**
   * @param progress told how the window fills
   */
  public static Result estimate(
      MetricSource source, Ds2Options options, DemandScenario demand, EventSink progress)
      throws InterruptedException {
    AtomicReference<String> problem = new AtomicReference<>();
    EventSink firstProblem =
        (topology, event) -> {
          if (event instanceof ScalerEvent.Problem p) {
            problem.compareAndSet(null, p.message());
          }
        };
    Actuator never = Actuator.unsupported("a single window never rescales");
    Clock clock = Clock.systemUTC();
    JobDriver driver =
        new JobDriver(
            source,
            new JobScaler(new ScalingPolicy(options), demand, Mode.DRY_RUN, never.pollInterval()),
            never,
            StateStore.inMemory(),
            EventSink.all(progress, firstProblem),
            clock);
    ScalerAction next = driver.start();
    while (true) {
      Duration wait = Duration.between(clock.instant(), next.at());
      if (!wait.isNegative() && !wait.isZero()) {
        Sleeper.SYSTEM.sleep(wait);
      }
      next = driver.advance(next);
      Optional<Decision> decided = driver.takeDecision();
      if (decided.isPresent()) {
        return new Result.Estimated(decided.get().estimate());
      }
      if (problem.get() != null) {
        return new Result.NoWindow(problem.get());
      }
      if (next instanceof ScalerAction.Stop stop) {
        return new Result.NoWindow(stop.why());
      }
    }
  }
}
