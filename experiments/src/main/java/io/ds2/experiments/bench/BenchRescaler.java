package io.ds2.experiments.bench;

import io.ds2.core.policy.Decision;
import io.ds2.core.scaler.Actuator;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RequestResult;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.RescaleStatus;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.flink.RestRescaler;
import io.ds2.flink.Sleeper;
import io.ds2.loop.EventSink;
import io.ds2.loop.Rescales;
import io.ds2.recording.Recorded;
import io.ds2.recording.RecordingWriter;
import io.ds2.render.DecisionSummary;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * The one rescale mechanism every controller uses: Flink's REST rescale (all vertices, verified),
 * with each request and outcome written to the run's recording as events, so steps and downtime are
 * counted the same way for every controller. ds2's loops rescale through {@link #actuator()} and
 * report outcomes to {@link #outcomes()}; baselines call {@link #rescale} and wait.
 */
public final class BenchRescaler {
  private final RestRescaler rest;
  private final RecordingWriter recording;
  private final Clock clock;

  public BenchRescaler(RestRescaler rest, RecordingWriter recording, Clock clock) {
    this.rest = rest;
    this.recording = recording;
    this.clock = clock;
  }

  /** The REST actuator, recording each request. */
  public Actuator actuator() {
    return new Actuator() {
      @Override
      public RequestResult request(Map<String, Integer> target) {
        requested(target);
        return rest.request(target);
      }

      @Override
      public RescaleStatus observe(Map<String, Integer> wanted) {
        return rest.observe(wanted);
      }

      @Override
      public Duration pollInterval() {
        return rest.pollInterval();
      }

      @Override
      public String abandon(
          Map<String, Integer> wanted, RescaleStatus.Pending last, Duration timeout) {
        return rest.abandon(wanted, last, timeout);
      }

      @Override
      public io.ds2.core.policy.SlotCapacity capacity() {
        return rest.capacity();
      }
    };
  }

  /** Records each outcome of a loop rescaling through {@link #actuator()}. */
  public EventSink outcomes() {
    return new EventSink() {
      private void decided(JobTopology topology, Decision decision, Mode mode) {}

      private void rescaled(
          JobTopology topology, Map<String, Integer> requested, RescaleOutcome outcome) {
        outcome(requested, outcome);
      }

      @Override
      public void on(JobTopology topology, ScalerEvent event) {
        if (event instanceof ScalerEvent.Decided d) {
          decided(topology, d.decision(), d.mode());
        } else if (event instanceof ScalerEvent.Rescaled r) {
          rescaled(topology, r.requested(), r.outcome());
        }
      }
    };
  }

  /** One rescale, waited for. */
  public RescaleOutcome rescale(Map<String, Integer> target, Duration timeout)
      throws InterruptedException {
    RescaleOutcome outcome = Rescales.run(actuator(), target, timeout, clock, Sleeper.SYSTEM);
    outcome(target, outcome);
    return outcome;
  }

  private void requested(Map<String, Integer> target) {
    var details = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    target.forEach(details.putObject("requested")::put);
    recording.write(
        new Recorded.Event(clock.instant(), "rescale-requested", "requested " + target, details));
  }

  private void outcome(Map<String, Integer> target, RescaleOutcome outcome) {
    var result = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    target.forEach(result.putObject("requested")::put);
    String kind;
    if (outcome instanceof RescaleOutcome.Applied a) {
      kind = "rescale-applied";
      result.put("seconds", a.took().toMillis() / 1000.0);
      result.put("downtimeSeconds", a.downtime().toMillis() / 1000.0);
    } else {
      kind = "rescale-not-applied";
      result.put("outcome", outcome.kind().label());
      result.put("message", DecisionSummary.rescale(outcome).strip());
    }
    recording.write(
        new Recorded.Event(
            clock.instant(), kind, DecisionSummary.rescale(outcome).strip(), result));
  }
}
