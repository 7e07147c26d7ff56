package io.ds2.loop;

import io.ds2.core.policy.Decision;
import io.ds2.core.policy.SlotCapacity;
import io.ds2.core.scaler.Actuator;
import io.ds2.core.scaler.JobScaler;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.MetricSource;
import io.ds2.core.scaler.ScalerAction;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.core.scaler.ScalerInput;
import io.ds2.core.scaler.SourceFailure;
import io.ds2.core.scaler.StateStore;
import io.ds2.core.scaler.Step;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Carries out one job's scaler actions against its ends: polls through the metric source, rescales
 * through the actuator, saves state in the store, reports every event to the listener. Each {@link
 * #advance} does one action and returns at once; when to do the next is the core's answer. The
 * blocking CLI loop ({@link ControlLoop}) and the operator's shared scheduler both drive it.
 */
public final class JobDriver {
  private final MetricSource source;
  private final JobScaler scaler;
  private final Actuator actuator;
  private final StateStore store;
  private final EventSink listener;
  private final Clock clock;
  private JobTopology topology;
  // This poll's topology was read while the source settled; the sample need not read it again.
  private boolean topologyRead;
  private SlotCapacity capacity = SlotCapacity.unknown();
  private Decision lastDecision;

  public JobDriver(
      MetricSource source,
      JobScaler scaler,
      Actuator actuator,
      StateStore store,
      EventSink listener,
      Clock clock) {
    this.source = source;
    this.scaler = scaler;
    this.actuator = actuator;
    this.store = store;
    this.listener = listener;
    this.clock = clock;
  }

  public JobScaler scaler() {
    return scaler;
  }

  /**
   * The first action: continue from what the store holds, and see a rescale an earlier instance
   * left in flight through before anything else (it is never requested twice).
   */
  public ScalerAction start() {
    scaler.restore(store.load());
    Optional<Map<String, Integer>> inFlight = actuator.inFlight();
    Step first =
        inFlight.isPresent()
            ? scaler.resume(inFlight.get(), clock.instant())
            : scaler.start(clock.instant());
    return first.next();
  }

  /**
   * Does {@code action} now, hands the result to the core, reports what happened.
   *
   * @return the next action; {@link ScalerAction.Stop} once the job is gone or ended (the loop ends
   *     in the CLI, starts over in the operator), and again if advanced past it
   */
  public ScalerAction advance(ScalerAction action) {
    if (action instanceof ScalerAction.Stop stop) {
      return stop;
    }
    if (action instanceof ScalerAction.Sample s) {
      Optional<ScalerAction> later = settle(s);
      if (later.isPresent()) {
        return later.get();
      }
    }
    Step step = scaler.step(perform(action), clock.instant());
    for (ScalerEvent e : step.events()) {
      report(e);
    }
    if (step.stateChanged()) {
      store.save(scaler.saved());
    }
    return step.next();
  }

  /** The decision of the last window, if one was made; taken once. */
  public Optional<Decision> takeDecision() {
    Decision d = lastDecision;
    lastDecision = null;
    return Optional.ofNullable(d);
  }

  /**
   * Reads the topology if asked and lets the source get its sample ready: when that takes a while
   * (Flink's store refreshing), the same poll comes back then instead of holding the thread, which
   * the operator shares among all its jobs. A failure here is the poll's, reported by the poll.
   */
  private Optional<ScalerAction> settle(ScalerAction.Sample s) {
    Duration wait;
    try {
      if (s.freshTopology() && !topologyRead || topology == null) {
        topology = source.topology();
        topologyRead = true;
      }
      wait = source.settle();
    } catch (SourceFailure e) {
      return Optional.empty();
    }
    return wait.isZero()
        ? Optional.empty()
        : Optional.of(new ScalerAction.Sample(clock.instant().plus(wait), s.freshTopology()));
  }

  private ScalerInput perform(ScalerAction action) {
    if (action instanceof ScalerAction.Sample s) {
      try {
        if (s.freshTopology() && !topologyRead || topology == null) {
          topology = source.topology();
        }
        if (s.freshTopology()) {
          capacity = actuator.capacity(); // once a window: it changes as other jobs come and go
        }
        topologyRead = false;
        return new ScalerInput.Sampled(topology.graph(), source.sample(topology.graph()), capacity);
      } catch (SourceFailure e) {
        return e.jobGone()
            ? new ScalerInput.JobGone(e.getMessage())
            : new ScalerInput.SampleFailed(e.getMessage());
      }
    }
    return Rescales.perform(actuator, action);
  }

  private void report(ScalerEvent e) {
    if (e instanceof ScalerEvent.Decided d) {
      lastDecision = d.decision();
    }
    listener.on(topology, e);
  }
}
