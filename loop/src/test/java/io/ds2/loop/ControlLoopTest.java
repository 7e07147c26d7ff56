package io.ds2.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.scaler.Actuator;
import io.ds2.core.scaler.JobScaler;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RequestResult;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.RescaleStatus;
import io.ds2.core.scaler.StateStore;
import io.ds2.testkit.FakeJob;
import io.ds2.testkit.FluidJob;
import io.ds2.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The loop's driver on the shared test doubles, on a clock the loop's own sleeps move: no Flink, no
 * Kubernetes, the real core, model and policy. Parse (11.1 ms a record) and Sink (8 ms) at 300
 * records/s need 3.33 -> 4 and 2.4 -> 3 instances.
 */
class ControlLoopTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final RecordingListener events = new RecordingListener();

  private FakeJob job() {
    return new FakeJob(
        "job",
        clock,
        300,
        List.of(
            new FluidJob.Stage("s", "Source: In", 0, 1),
            new FluidJob.Stage("p", "Parse", 0.0111, 1),
            new FluidJob.Stage("k", "Sink", 0.008, 0)));
  }

  private ControlLoop loop(FakeJob job, Actuator actuator, String... options) {
    ScalingPolicy policy = new ScalingPolicy(LoopTestSupport.options(options));
    return new ControlLoop(
        job,
        new JobScaler(policy, DemandScenario.measured(), Mode.ACT, actuator.pollInterval()),
        actuator,
        StateStore.inMemory(),
        events,
        clock::advance,
        clock);
  }

  @Test
  void fromParallelismOneItRescalesOnceToWhatIsNeededThenHolds() throws Exception {
    FakeJob job = job().restartTakes(Duration.ofSeconds(2));
    ControlLoop loop = loop(job, job);
    Decision first = loop.step().orElseThrow();
    assertEquals(
        Map.of("s", 1, "p", 4, "k", 3),
        assertInstanceOf(Action.Rescale.class, first.action()).parallelism());
    RescaleOutcome.Applied applied =
        assertInstanceOf(RescaleOutcome.Applied.class, events.rescales.get(0));
    // Down from the request to the poll that saw it running again: 2 s, seen every 250 ms.
    assertTrue(
        applied.downtime().compareTo(Duration.ofSeconds(2)) >= 0
            && applied.downtime().compareTo(Duration.ofMillis(2250)) <= 0,
        applied.toString());
    for (int i = 0; i < 3; i++) {
      Decision d = loop.step().orElseThrow();
      assertEquals(
          ReasonCode.NO_CHANGE, assertInstanceOf(Action.Hold.class, d.action()).reason().code());
    }
    assertEquals(1, job.requests());
  }

  @Test
  void aPollComesBackWhenTheMetricsHaveSettledInsteadOfWaitingForThem() throws Exception {
    // One settle per poll, each 1 s before its sample (FakeJob fails a sample taken sooner): the
    // driver hands the wait back to its caller (here the loop's sleep; the operator's scheduler).
    FakeJob job = job().metricsSettleIn(Duration.ofSeconds(1)).restartTakes(Duration.ofSeconds(2));
    ControlLoop loop = loop(job, job);
    Decision first = loop.step().orElseThrow();
    assertEquals(
        Map.of("s", 1, "p", 4, "k", 3),
        assertInstanceOf(Action.Rescale.class, first.action()).parallelism());
    Decision next = loop.step().orElseThrow();
    assertEquals(
        ReasonCode.NO_CHANGE, assertInstanceOf(Action.Hold.class, next.action()).reason().code());
    assertTrue(job.settles() >= 10, "every poll settled first: " + job.settles());
    assertTrue(events.problems.isEmpty(), "no poll failed: " + events.problems);
  }

  @Test
  void aRescaleThatNeverShowsIsAbandonedAtTheTimeoutAndBackedOffFrom() throws Exception {
    FakeJob job = job().neverApplies();
    ControlLoop loop = loop(job, job, "rescale-timeout", "5s", "rescale-backoff", "10m");
    assertInstanceOf(Action.Rescale.class, loop.step().orElseThrow().action());
    RescaleOutcome.NotApplied unmet =
        assertInstanceOf(RescaleOutcome.NotApplied.class, events.rescales.get(0));
    assertEquals(RescaleOutcome.Cause.TIMED_OUT, unmet.cause());
    assertTrue(unmet.message().contains("after 5 s still runs"), unmet.message());
    for (int i = 0; i < 3; i++) {
      Decision d = loop.step().orElseThrow();
      assertEquals(ReasonCode.BACKING_OFF, ((Action.Hold) d.action()).reason().code());
    }
    assertEquals(1, job.requests(), "one attempt, no storm");
  }

  @Test
  void aRescaleAnEarlierInstanceLeftInFlightIsSeenThroughNotRequestedAgain() throws Exception {
    FakeJob job = job();
    Map<String, Integer> target = Map.of("p", 4, "k", 3);
    job.request(target); // an earlier controller asked, then stopped
    Actuator resumed =
        new Actuator() {
          @Override
          public RequestResult request(Map<String, Integer> t) {
            return job.request(t);
          }

          @Override
          public RescaleStatus observe(Map<String, Integer> wanted) {
            return job.observe(wanted);
          }

          @Override
          public Duration pollInterval() {
            return job.pollInterval();
          }

          @Override
          public String abandon(
              Map<String, Integer> wanted, RescaleStatus.Pending last, Duration timeout) {
            return job.abandon(wanted, last, timeout);
          }

          @Override
          public Optional<Map<String, Integer>> inFlight() {
            return Optional.of(Map.of("s", 1, "p", 4, "k", 3));
          }
        };
    ControlLoop loop = loop(job, resumed);
    Decision d = loop.step().orElseThrow();
    assertInstanceOf(RescaleOutcome.Applied.class, events.rescales.get(0));
    assertEquals(ReasonCode.NO_CHANGE, ((Action.Hold) d.action()).reason().code());
    assertEquals(1, job.requests(), "seen through, not requested twice");
  }
}
