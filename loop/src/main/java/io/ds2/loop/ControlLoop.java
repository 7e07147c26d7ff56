package io.ds2.loop;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.DecisionPolicy;
import io.ds2.core.scaler.Actuator;
import io.ds2.core.scaler.JobScaler;
import io.ds2.core.scaler.MetricSource;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.ScalerAction;
import io.ds2.core.scaler.StateStore;
import io.ds2.flink.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * One job's loop on the calling thread: step the scaler core, sleep until its next action is due,
 * repeat. The CLI's {@code run}, {@code recommend} and demo, what-if replays (on recorded time,
 * with a sleeper that does not sleep) and the benchmarks use it; the operator steps its jobs on a
 * shared scheduler instead.
 */
public final class ControlLoop {
  private final JobDriver driver;
  private final Sleeper sleeper;
  private final Clock clock;
  private ScalerAction next;

  /**
   * @param sleeper pauses until the next action is due (a no-op when replaying)
   * @param clock the loop's time: each step is given its reading
   */
  public ControlLoop(
      MetricSource source,
      DecisionPolicy policy,
      Actuator actuator,
      Mode mode,
      DemandScenario demand,
      EventSink listener,
      Sleeper sleeper,
      Clock clock) {
    this(
        source,
        new JobScaler(policy, demand, mode, actuator.pollInterval()),
        actuator,
        StateStore.inMemory(),
        listener,
        sleeper,
        clock);
  }

  public ControlLoop(
      MetricSource source,
      JobScaler scaler,
      Actuator actuator,
      StateStore store,
      EventSink listener,
      Sleeper sleeper,
      Clock clock) {
    this.clock = clock;
    this.driver = new JobDriver(source, scaler, actuator, store, listener, clock);
    this.sleeper = sleeper;
  }

  public Mode mode() {
    return driver.scaler().mode();
  }

  /**
   * Runs until the next window is decided on (and a rescale it asked for is over), or the job ends.
   *
   * @return the decision; empty once the job is gone or ended ({@link #ended()} says why)
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  public Optional<Decision> step() throws InterruptedException {
    if (next == null) {
      next = driver.start();
    }
    Optional<Decision> decided = Optional.empty();
    while (!(next instanceof ScalerAction.Stop)) {
      Duration wait = Duration.between(clock.instant(), next.at());
      if (!wait.isNegative() && !wait.isZero()) {
        sleeper.sleep(wait);
      }
      next = driver.advance(next);
      decided = decided.or(driver::takeDecision);
      // Over once a new window starts: the decision, and its rescale if it asked for one, done.
      if (decided.isPresent() && next instanceof ScalerAction.Sample) {
        return decided;
      }
    }
    return decided;
  }

  /** Why the loop is over: the job is gone or ended; empty while it runs. */
  public Optional<String> ended() {
    return next instanceof ScalerAction.Stop stop ? Optional.of(stop.why()) : Optional.empty();
  }

  /**
   * Steps until {@code keepGoing} says stop, {@code maxDecisions} were made, or the job ends.
   * Transient failures (Flink unreachable, no clean window in time) are reported and retried after
   * a window's time.
   *
   * @return why the job ended, if that is what ended the run
   */
  public Optional<String> run(BooleanSupplier keepGoing, long maxDecisions)
      throws InterruptedException {
    for (long decisions = 0; keepGoing.getAsBoolean() && decisions < maxDecisions; decisions++) {
      if (step().isEmpty()) {
        return ended();
      }
    }
    return Optional.empty();
  }
}
