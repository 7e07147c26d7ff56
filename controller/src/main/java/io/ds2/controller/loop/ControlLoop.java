package io.ds2.controller.loop;

import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.FlinkRestException;
import io.ds2.flink.JobSampler;
import io.ds2.flink.JobTopology;
import io.ds2.flink.MetricSource;
import io.ds2.flink.RescaleOutcome;
import io.ds2.flink.RestRescaler;
import io.ds2.flink.WindowCollector;
import io.ds2.model.estimate.DemandScenario;
import io.ds2.model.estimate.Ds2Model;
import io.ds2.model.estimate.Estimate;
import io.ds2.model.keyed.KeyedHistory;
import io.ds2.model.options.Ds2Options;
import io.ds2.model.policy.Action;
import io.ds2.model.policy.Decision;
import io.ds2.model.policy.DecisionPolicy;
import io.ds2.model.policy.ScalingPolicy;
import io.ds2.model.window.ObservationWindow;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The control loop for one job: collect a clean window, estimate (DS2), decide (policy), execute
 * (actuator), report every step to the listener. Framework-neutral: the REST actuator here, the
 * Kubernetes one later.
 */
public final class ControlLoop {
  /** Whether decisions are carried out. */
  public enum Mode {
    /** Rescale when the policy says so. */
    ACT,
    /** Decide and report, never rescale (asked for by the user). */
    DRY_RUN,
    /** Decide and report only, because the cluster cannot rescale this job. */
    ADVISOR
  }

  /** Applies a rescale and reports what actually happened. */
  @FunctionalInterface
  public interface Actuator {
    RescaleOutcome rescale(String jobId, Map<String, Integer> target, Duration timeout)
        throws InterruptedException;
  }

  // How often a rescale's progress is polled; also the resolution of measured downtime.
  private static final Duration RESCALE_POLL = Duration.ofMillis(250);

  // Failures that end the loop: the job is gone; anything else is retried.
  private static final Set<FlinkRestException.Kind> FATAL =
      Set.of(FlinkRestException.Kind.JOB_NOT_FOUND, FlinkRestException.Kind.JOB_NOT_RUNNING);

  private final MetricSource sampler;
  private final WindowCollector collector;
  private final DecisionPolicy policy;
  private final Actuator actuator;
  private final DemandScenario demand;
  private final LoopListener listener;
  private final WindowCollector.Sleeper sleeper;
  private Mode mode;
  // What keyed vertices' spreads looked like at the parallelisms they ran at (model memory).
  private KeyedHistory keyedHistory = KeyedHistory.empty();

  /**
   * @param sampler live REST or a replayed recording
   * @param policy the policy; its clock is also the collector's
   * @param sleeper pauses between polls and after failures (a no-op when replaying)
   */
  public ControlLoop(
      MetricSource sampler,
      DecisionPolicy policy,
      Actuator actuator,
      Mode mode,
      DemandScenario demand,
      LoopListener listener,
      WindowCollector.Sleeper sleeper) {
    Ds2Options o = policy.options();
    this.sampler = sampler;
    this.collector =
        new WindowCollector(
            sampler, policy.clock(), sleeper, o.window(), o.warmUp(), o.sampleInterval());
    this.policy = policy;
    this.actuator = actuator;
    this.mode = mode;
    this.demand = demand;
    this.listener = listener;
    this.sleeper = sleeper;
  }

  /**
   * A loop over Flink's REST API: REST metrics in, in-place REST rescales out, real time.
   *
   * @param sampler usually a {@link JobSampler} on {@code client}, possibly wrapped (recording)
   */
  public static ControlLoop overRest(
      FlinkRestClient client,
      MetricSource sampler,
      Ds2Options options,
      Mode mode,
      DemandScenario demand,
      LoopListener listener) {
    Clock clock = Clock.systemUTC();
    return new ControlLoop(
        sampler,
        new ScalingPolicy(options, clock),
        new RestRescaler(client, clock, WindowCollector.Sleeper.SYSTEM, RESCALE_POLL)::rescale,
        mode,
        demand,
        listener,
        WindowCollector.Sleeper.SYSTEM);
  }

  public Mode mode() {
    return mode;
  }

  /**
   * Continues from what an earlier loop learnt of the keyed vertices (e.g. saved by an operator).
   */
  public void restoreKeyedHistory(KeyedHistory history) {
    keyedHistory = history;
  }

  /** One collect, estimate, decide, execute step. */
  public Decision step() throws InterruptedException {
    Ds2Options o = policy.options();
    JobTopology topology = sampler.topology();
    ObservationWindow window =
        collector.collect(topology.graph(), WindowCollector.maxWait(o), listener);
    Estimate estimate =
        Ds2Model.estimateFor(
            topology.graph(), window, demand, policy.estimateOptions(), keyedHistory);
    keyedHistory = estimate.keyedHistory();
    Decision decision = policy.decide(topology.graph(), estimate);
    listener.decided(topology, decision, mode);
    if (decision.action() instanceof Action.Rescale rescale && mode == Mode.ACT) {
      execute(topology, rescale.parallelism());
    }
    return decision;
  }

  private void execute(JobTopology topology, Map<String, Integer> target)
      throws InterruptedException {
    RescaleOutcome outcome;
    try {
      outcome = actuator.rescale(topology.jobId(), target, policy.options().rescaleTimeout());
    } catch (FlinkRestException e) {
      if (FATAL.contains(e.kind())) {
        throw e;
      }
      // No answer is not a refusal: Flink may apply the request later. Back off either way, so
      // the request is never repeated on top of itself.
      outcome =
          new RescaleOutcome.Failed(
              e.getMessage() + "; the request may still take effect, backing off");
    }
    listener.rescaled(topology, target, outcome);
    if (outcome instanceof RescaleOutcome.Applied) {
      policy.rescaleApplied();
    } else if (outcome instanceof RescaleOutcome.Unsupported u) {
      mode = Mode.ADVISOR;
      listener.problem(u.message() + "; continuing in advisor mode (decisions only)");
    } else {
      policy.rescaleNotApplied(); // unmet or refused: back off, never storm
    }
  }

  /**
   * Steps until {@code keepGoing} says stop or {@code maxDecisions} were made. Transient failures
   * (Flink unreachable, no clean window in time) are reported and retried after a window's time; a
   * job that is gone ends the loop with its exception.
   */
  public void run(BooleanSupplier keepGoing, long maxDecisions) throws InterruptedException {
    long decisions = 0;
    while (keepGoing.getAsBoolean() && decisions < maxDecisions) {
      try {
        step();
        decisions++;
      } catch (FlinkRestException e) {
        if (FATAL.contains(e.kind())) {
          throw e;
        }
        listener.problem(
            e.getMessage() + "; retrying in " + policy.options().window().toSeconds() + " s");
        sleeper.sleep(policy.options().window());
      }
    }
  }
}
