package io.ds2.core.scaler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.Observations;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A rescale asked for at T0 while 300 records/s arrive at the source (280/s read, its lag growing
 * 20/s): running again 5 s later, down at most 4 s, so 1,200 records arrived while it was down;
 * caught up once the source has read them and then waited for records between two polls.
 */
class CatchUpTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant RUNNING = T0.plusSeconds(5);

  private static Estimate estimate(SourceDemand.Basis basis) {
    return new Estimate(
        new Observations(30).source("s", 1, 280 * 30).window(),
        Map.of(
            "s",
            new SourceDemand(
                "s",
                300,
                basis,
                280,
                OptionalDouble.of(20),
                OptionalDouble.empty(),
                1,
                Optional.empty())),
        List.of(),
        1.0,
        KeyedHistory.empty());
  }

  private static CatchUp applied() {
    CatchUp c = CatchUp.of(estimate(SourceDemand.Basis.BACKLOG), T0).orElseThrow();
    c.applied(Duration.ofSeconds(5), Duration.ofSeconds(4), T0.plusSeconds(180));
    return c;
  }

  /**
   * A poll {@code seconds} after T0 of the job running since {@code since}: its two subtasks
   * together read {@code in} and emitted {@code out}, held (busy or back-pressured) {@code heldMs}
   * of {@code allMs}.
   */
  private static JobSample poll(
      int seconds, Instant since, double in, double out, double heldMs, double allMs) {
    return new JobSample(
        T0.plusSeconds(seconds),
        "RUNNING",
        since,
        OptionalLong.of(0),
        Map.of(
            "s",
            new VertexSample(
                "s",
                "RUNNING",
                2,
                List.of(
                    SubtaskSample.of(0, in / 2, out / 2, heldMs / 2, (allMs - heldMs) / 2, 0),
                    SubtaskSample.of(1, in / 2, out / 2, 0, (allMs - heldMs) / 2, heldMs / 2)),
                OptionalDouble.of(0))));
  }

  private static Optional<Duration> take(CatchUp c, JobSample s) {
    return c.take(s, s.time());
  }

  @Test
  void theRescaleLastsUntilTheSourcesReadWhatArrivedWhileDownAndThenWaitForRecords() {
    CatchUp c = applied();
    // Running 2 s: the downtime's 1,200 records not read yet, though the source waited (a fetch).
    take(c, poll(6, RUNNING, 100, 100, 100, 2_000));
    assertEquals(Optional.empty(), take(c, poll(7, RUNNING, 300, 300, 1_100, 4_000)));
    // Catching up: held all the time between polls.
    assertEquals(Optional.empty(), take(c, poll(17, RUNNING, 4_000, 4_000, 21_100, 24_000)));
    // Caught up: it waited for records 30 % of the last 10 s.
    assertEquals(
        Optional.of(Duration.ofSeconds(27)),
        take(c, poll(27, RUNNING, 7_000, 7_000, 35_100, 44_000)));
  }

  @Test
  void countersOfTheJobBeforeTheRescaleSayNothing() {
    CatchUp c = applied();
    take(c, poll(3, T0.minusSeconds(600), 1e6, 1e6, 0, 1e6));
    assertEquals(Optional.empty(), take(c, poll(4, T0.minusSeconds(600), 1e6, 1e6, 0, 2e6)));
  }

  @Test
  void aSourceThatDoesNotCountItsReadsIsReadByWhatItEmits() {
    CatchUp c = applied();
    take(c, poll(17, RUNNING, 0, 4_000, 0, 24_000));
    assertEquals(
        Optional.of(Duration.ofSeconds(27)), take(c, poll(27, RUNNING, 0, 7_000, 0, 44_000)));
  }

  @Test
  void notCaughtUpWithinTheTimeoutCountsFromRequestToRunning() {
    CatchUp c = applied();
    assertEquals(
        Optional.of(Duration.ofSeconds(5)), take(c, poll(181, RUNNING, 10, 10, 1_000, 1_000)));
    // So far, before the timeout: at least request to running.
    assertEquals(Duration.ofSeconds(30), c.soFar(T0.plusSeconds(30)));
    assertEquals(Duration.ofSeconds(5), c.soFar(T0.plusSeconds(1)));
  }

  @Test
  void noWatchWhereTheArrivalWasNotMeasured() {
    assertTrue(CatchUp.of(estimate(SourceDemand.Basis.BACKLOG_HIDDEN), T0).isEmpty());
  }
}
