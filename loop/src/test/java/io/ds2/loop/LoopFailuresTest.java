package io.ds2.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.window.WindowProblem;
import io.ds2.workloads.SampleJobs;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** What the loop does when Flink does not cooperate: no wrong rescale, no rescale storm. */
class LoopFailuresTest {
  /**
   * 2 x 1 slots, the job needs 4 at its oracle: ds2 asks for no more than the 2 slots the job can
   * get (the cluster's free one and the one it holds), Flink applies that, and the next window
   * holds there saying why. Asked for 4, Flink would accept the request and never apply it.
   */
  @Test
  void asksForNoMoreSlotsThanTheClusterHasAndHoldsThere() throws Exception {
    RecordingListener events = new RecordingListener();
    try (LoopTestSupport flink = new LoopTestSupport(SampleJobs.ordersAndPayments(), 1, Map.of())) {
      ControlLoop loop =
          flink.loop(LoopTestSupport.options("rescale-timeout", "60s"), Mode.ACT, events);
      Decision first = loop.step().orElseThrow();
      Action.Rescale rescale = assertInstanceOf(Action.Rescale.class, first.action());
      assertTrue(rescale.parallelism().values().stream().allMatch(p -> p <= 2), first.toString());
      assertTrue(
          first.vertices().stream()
              .anyMatch(
                  v ->
                      v.reasons().stream()
                          .anyMatch(
                              r ->
                                  r.code() == ReasonCode.SLOT_LIMIT
                                      && r.message().contains("the job can get 2 slots"))),
          first.toString());
      assertInstanceOf(RescaleOutcome.Applied.class, events.rescales.get(0));
      Decision next = loop.step().orElseThrow();
      assertEquals(ReasonCode.SLOT_LIMIT, ((Action.Hold) next.action()).reason().code());
      assertEquals(1, events.rescales.size(), "nothing asked that cannot run");
    }
  }

  @Test
  void restartMidWindowIsNeverDecidedOn() throws Exception {
    RecordingListener events = new RecordingListener();
    try (LoopTestSupport flink = new LoopTestSupport(SampleJobs.ordersAndPayments(), 4, Map.of())) {
      String sink =
          flink
              .client
              .get("/jobs/" + flink.jobId, io.ds2.flink.dto.JobDetails.class)
              .vertices()
              .stream()
              .filter(v -> v.name().equals("Join -> Sink"))
              .findFirst()
              .orElseThrow()
              .id();
      // Restart the job (an outside rescale of Join -> Sink to 2) while the loop collects its
      // window.
      CompletableFuture<RescaleOutcome> restart = new CompletableFuture<>();
      EventSink restartOnce =
          new RecordingListener() {
            @Override
            public void waiting(java.time.Duration collected, java.time.Duration wanted, String s) {
              if (collected.toSeconds() >= 3 && !restart.isDone()) {
                restart.complete(null);
                CompletableFuture.runAsync(
                    () -> {
                      try {
                        flink.rescale(Map.of(sink, 2), java.time.Duration.ofSeconds(60));
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    });
              }
            }
          };
      ControlLoop loop =
          flink.loop(LoopTestSupport.options(), Mode.DRY_RUN, EventSink.all(events, restartOnce));
      Decision d = loop.step().orElseThrow();
      assertTrue(
          events.dropped.stream().anyMatch(WindowProblem::invalidatesSamples),
          "the window across the restart was dropped: " + events.dropped);
      assertEquals(
          2,
          d.vertices().stream()
              .filter(v -> v.name().equals("Join -> Sink"))
              .findFirst()
              .orElseThrow()
              .current(),
          "decided on a window after the restart only");
      assertTrue(events.rescales.isEmpty(), "dry run never rescales");
    }
  }

  @Test
  void aJobCancelledMidWindowEndsTheLoopWithoutADecision() throws Exception {
    RecordingListener events = new RecordingListener();
    try (LoopTestSupport flink = new LoopTestSupport(SampleJobs.ordersAndPayments(), 4, Map.of())) {
      EventSink cancelOnce =
          new RecordingListener() {
            @Override
            public void waiting(java.time.Duration collected, java.time.Duration wanted, String s) {
              if (collected.toSeconds() >= 2) {
                flink.job.cancel();
              }
            }
          };
      ControlLoop loop =
          flink.loop(LoopTestSupport.options(), Mode.ACT, EventSink.all(events, cancelOnce));
      // The job's end is an outcome of the loop, not an error: run returns why.
      String why = loop.run(() -> true, 5).orElseThrow();
      assertTrue(why.contains("CANCEL"), why);
      assertTrue(events.decisions.isEmpty(), "nothing decided on a window the job ended in");
      assertTrue(events.rescales.isEmpty());
    }
  }
}
