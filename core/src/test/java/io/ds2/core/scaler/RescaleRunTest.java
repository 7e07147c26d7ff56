package io.ds2.core.scaler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One rescale from request to outcome: timing, downtime and every way it can end, by type. */
class RescaleRunTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Map<String, Integer> TARGET = Map.of("v", 3);
  private static final Map<String, Integer> OLD = Map.of("v", 1);
  private static final Duration POLL = Duration.ofMillis(250);

  private final RescaleRun run = new RescaleRun(TARGET, T0, Duration.ofSeconds(10), POLL);

  private static ScalerInput pending(boolean up) {
    return new ScalerInput.Observed(new RescaleStatus.Pending(up, OLD, "Flink to run v=3"));
  }

  private static ScalerInput applied() {
    return new ScalerInput.Observed(new RescaleStatus.Applied(TARGET));
  }

  private RescaleRun.Next answer(RequestResult r) {
    return run.take(new ScalerInput.Answered(r), T0);
  }

  private static Instant at(long millis) {
    return T0.plusMillis(millis);
  }

  @Test
  void downtimeRunsFromTheFirstPollThatSawTheJobDownToTheOneThatSawItRunning() {
    ScalerAction first = answer(new RequestResult.Accepted(TARGET)).action().orElseThrow();
    assertInstanceOf(ScalerAction.Observe.class, first);
    assertEquals(T0, first.at(), "observed at once");
    ScalerAction next = run.take(pending(true), at(0)).action().orElseThrow();
    assertEquals(at(250), next.at(), "then every poll interval");
    run.take(pending(false), at(250));
    run.take(pending(false), at(500));
    RescaleOutcome.Applied a =
        assertInstanceOf(
            RescaleOutcome.Applied.class, run.take(applied(), at(1750)).outcome().orElseThrow());
    assertEquals(Duration.ofMillis(1750), a.took());
    assertEquals(Duration.ofMillis(1500), a.downtime());
  }

  @Test
  void aRestartNoPollCaughtCountsFromTheLastPollThatSawItUp() {
    answer(new RequestResult.Accepted(TARGET));
    run.take(pending(true), at(0));
    run.take(pending(true), at(250));
    RescaleOutcome.Applied a =
        assertInstanceOf(
            RescaleOutcome.Applied.class, run.take(applied(), at(500)).outcome().orElseThrow());
    assertEquals(Duration.ofMillis(250), a.downtime());
  }

  @Test
  void aRescaleThatDoesNotShowInTimeIsAbandonedAndNotApplied() {
    answer(new RequestResult.Accepted(TARGET));
    RescaleRun.Next early = run.take(pending(true), at(9_700));
    assertInstanceOf(ScalerAction.Observe.class, early.action().get(), "a poll still fits");
    RescaleRun.Next n = run.take(pending(true), at(9_800));
    ScalerAction.Abandon abandon = assertInstanceOf(ScalerAction.Abandon.class, n.action().get());
    assertEquals(Duration.ofSeconds(10), abandon.timeout());
    RescaleOutcome.NotApplied unmet =
        assertInstanceOf(
            RescaleOutcome.NotApplied.class,
            run.take(new ScalerInput.Abandoned("still runs v=1"), at(9_900))
                .outcome()
                .orElseThrow());
    assertEquals(RescaleOutcome.Cause.TIMED_OUT, unmet.cause());
    assertEquals("still runs v=1", unmet.message());
  }

  @Test
  void everyOtherEndIsTypedNotWorded() {
    assertInstanceOf(
        RescaleOutcome.Unsupported.class,
        answer(new RequestResult.Unsupported("default scheduler")).outcome().orElseThrow());
    RescaleOutcome.Failed unanswered =
        assertInstanceOf(
            RescaleOutcome.Failed.class,
            answer(new RequestResult.Unanswered("no answer")).outcome().orElseThrow());
    assertTrue(unanswered.message().endsWith("may still take effect, backing off"));
    assertInstanceOf(
        RescaleOutcome.Failed.class,
        answer(new RequestResult.Refused("HTTP 400")).outcome().orElseThrow());
    RescaleOutcome.NotApplied before =
        assertInstanceOf(
            RescaleOutcome.NotApplied.class,
            answer(new RequestResult.ChangedByOthers("GitOps")).outcome().orElseThrow());
    assertEquals(RescaleOutcome.Cause.CHANGED_BY_OTHERS, before.cause());
    answer(new RequestResult.Accepted(TARGET));
    RescaleOutcome.NotApplied during =
        assertInstanceOf(
            RescaleOutcome.NotApplied.class,
            run.take(new ScalerInput.Observed(new RescaleStatus.ChangedByOthers("GitOps")), at(1))
                .outcome()
                .orElseThrow());
    assertEquals(RescaleOutcome.Cause.CHANGED_BY_OTHERS, during.cause());
    assertEquals(RescaleOutcome.Kind.NOT_APPLIED, during.kind());
  }
}
