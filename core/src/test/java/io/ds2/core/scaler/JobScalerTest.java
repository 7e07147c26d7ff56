package io.ds2.core.scaler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.window.JobSample;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The core stepped by hand: what it asks for next, and when, after a poll, a failed poll, a job
 * that ended, and a cluster that cannot rescale.
 */
class JobScalerTest {
  private static final Instant T0 = TwoVertexJob.T0;
  private static final JobGraph GRAPH = TwoVertexJob.GRAPH;
  private static final Ds2Options OPTIONS =
      Ds2Options.fromMap(
          Map.of("window", "10s", "warm-up", "0s", "sample-interval", "1s", "activation", "1"));

  private Instant now = T0;
  private final JobScaler scaler =
      new JobScaler(
          new ScalingPolicy(OPTIONS), DemandScenario.measured(), Mode.ACT, Duration.ofMillis(250));

  private JobSample sample(String state) {
    return TwoVertexJob.sample(now, state, 1, 0);
  }

  private Step poll() {
    return scaler.step(new ScalerInput.Sampled(GRAPH, sample("RUNNING")), now);
  }

  @Test
  void itPollsAtAFixedRateUntilAWindowIsDecidedThenAsksForTheRescale() {
    ScalerAction first = scaler.start(now).next();
    assertEquals(new ScalerAction.Sample(T0, true), first, "a new window reads the topology");
    Step s = poll();
    for (int i = 0; s.next() instanceof ScalerAction.Sample next; i++) {
      assertEquals(now.plusSeconds(1), next.at(), "every sample interval");
      assertTrue(i < 20, "a window within 20 polls");
      now = next.at();
      s = poll();
    }
    ScalerEvent.Decided decided =
        assertInstanceOf(ScalerEvent.Decided.class, s.events().get(s.events().size() - 1));
    assertInstanceOf(Action.Rescale.class, decided.decision().action());
    assertEquals(Map.of("s", 1, "w", 3), ((ScalerAction.Request) s.next()).target());
    assertTrue(s.stateChanged(), "a decision is saved");
  }

  @Test
  void aFailedPollIsReportedAndANewWindowStartsAWindowLater() {
    scaler.start(now);
    poll();
    Step s = scaler.step(new ScalerInput.SampleFailed("Flink did not answer"), now);
    ScalerEvent.Problem p = assertInstanceOf(ScalerEvent.Problem.class, s.events().get(0));
    assertEquals(ScalerEvent.Problem.Kind.SAMPLING_FAILED, p.kind());
    assertEquals("Flink did not answer; retrying in 10 s", p.text());
    assertEquals(new ScalerAction.Sample(T0.plusSeconds(10), true), s.next());
  }

  @Test
  void aJobThatEndedStopsTheLoopWithoutADecision() {
    scaler.start(now);
    Step s = scaler.step(new ScalerInput.Sampled(GRAPH, sample("CANCELED")), now);
    assertTrue(s.events().isEmpty());
    assertEquals(
        "job became CANCELED while collecting metrics",
        assertInstanceOf(ScalerAction.Stop.class, s.next()).why());
  }

  @Test
  void aJobGoneFromItsSourceStopsTheLoopSayingWhy() {
    scaler.start(now);
    poll();
    Step s = scaler.step(new ScalerInput.JobGone("no job abc at http://flink:8081"), now);
    assertTrue(s.events().isEmpty(), "an end is an outcome, not a problem to report");
    assertEquals(new ScalerAction.Stop(now, "no job abc at http://flink:8081"), s.next());
  }

  @Test
  void aClusterThatCannotRescaleTurnsTheLoopIntoAnAdvisor() {
    scaler.start(now);
    Step s = poll();
    while (s.next() instanceof ScalerAction.Sample next) {
      now = next.at();
      s = poll();
    }
    s =
        scaler.step(
            new ScalerInput.Answered(new RequestResult.Unsupported("not the adaptive scheduler")),
            now);
    assertInstanceOf(ScalerEvent.Rescaled.class, s.events().get(0));
    ScalerEvent.Problem p = assertInstanceOf(ScalerEvent.Problem.class, s.events().get(1));
    assertEquals(ScalerEvent.Problem.Kind.NOW_ADVISING, p.kind());
    assertEquals(Mode.ADVISOR, scaler.mode());
    assertInstanceOf(ScalerAction.Sample.class, s.next());
  }

  /** Polls until the window is decided; returns the step that asks for the rescale. */
  private Step untilDecided() {
    Step s = poll();
    while (s.next() instanceof ScalerAction.Sample next) {
      now = next.at();
      s = poll();
    }
    return s;
  }

  @Test
  void aRequestTheActuatorWasTooBusyToMakeIsNotBackedOffFromButDecidedAgain() {
    scaler.start(now);
    untilDecided();
    Step s =
        scaler.step(
            new ScalerInput.Answered(new RequestResult.Busy("the Flink operator is upgrading")),
            now);
    ScalerEvent.Rescaled r = assertInstanceOf(ScalerEvent.Rescaled.class, s.events().get(0));
    assertEquals(
        RescaleOutcome.Cause.BUSY,
        assertInstanceOf(RescaleOutcome.NotApplied.class, r.outcome()).cause());
    now = ((ScalerAction.Sample) s.next()).at();
    Instant asked = now;
    Step again = untilDecided();
    assertTrue(now.isBefore(asked.plusSeconds(30)), "within a few windows: " + now);
    assertEquals(
        Map.of("s", 1, "w", 3),
        assertInstanceOf(ScalerAction.Request.class, again.next()).target(),
        "asked again a window later, with no back-off");
  }

  @Test
  void aRefusedRequestIsBackedOffFrom() {
    scaler.start(now);
    untilDecided();
    Step s = scaler.step(new ScalerInput.Answered(new RequestResult.Refused("HTTP 403")), now);
    now = ((ScalerAction.Sample) s.next()).at();
    Step again = poll();
    while (again.events().stream().noneMatch(e -> e instanceof ScalerEvent.Decided)) {
      now = again.next().at();
      again = poll();
    }
    ScalerEvent.Decided d =
        assertInstanceOf(ScalerEvent.Decided.class, again.events().get(again.events().size() - 1));
    assertInstanceOf(Action.Hold.class, d.decision().action(), "the next window holds");
  }

  @Test
  void aSplitCountForAVertexTheJobDoesNotHaveIsReportedOnceAndIgnored() {
    JobScaler given =
        new JobScaler(
            new ScalingPolicy(OPTIONS),
            DemandScenario.measured().withSourceSplits(Map.of("Source: Files", 8, "Source", 4)),
            Mode.ACT,
            Duration.ofMillis(250));
    given.start(now);
    List<ScalerEvent> events = new java.util.ArrayList<>();
    Step s = given.step(new ScalerInput.Sampled(GRAPH, sample("RUNNING")), now);
    while (s.next() instanceof ScalerAction.Sample next) {
      events.addAll(s.events());
      now = next.at();
      s = given.step(new ScalerInput.Sampled(GRAPH, sample("RUNNING")), now);
    }
    events.addAll(s.events());
    List<ScalerEvent.Problem> problems =
        events.stream()
            .filter(ScalerEvent.Problem.class::isInstance)
            .map(ScalerEvent.Problem.class::cast)
            .toList();
    assertEquals(1, problems.size(), events.toString());
    assertEquals(ScalerEvent.Problem.Kind.SETTING_IGNORED, problems.get(0).kind());
    assertEquals(
        "source-splits names 'Source: Files', which is not a source vertex of the job (sources:"
            + " 'Source'); ignored",
        problems.get(0).text());
    assertInstanceOf(ScalerEvent.Decided.class, events.get(events.size() - 1), "and it decides");
  }

  @Test
  void theForecastsRescaleTimesAreSavedAndRestored() {
    List<Duration> took = List.of(Duration.ofSeconds(90), Duration.ofMillis(120_500));
    SavedState saved =
        new SavedState(
            java.util.Optional.empty(),
            io.ds2.core.keyed.KeyedHistory.empty(),
            io.ds2.core.forecast.DemandHistory.Snapshot.EMPTY,
            took);
    JobScaler predictive =
        new JobScaler(
            new ScalingPolicy(OPTIONS.with(Map.of(Ds2Options.FORECAST, "act"))),
            DemandScenario.measured(),
            Mode.ACT,
            Duration.ofMillis(250));
    predictive.restore(saved);
    assertEquals(took, predictive.saved().rescales(), "a new instance looks ahead by them");
    scaler.restore(saved);
    assertTrue(scaler.saved().rescales().isEmpty(), "without a forecast nothing is kept");
  }
}
