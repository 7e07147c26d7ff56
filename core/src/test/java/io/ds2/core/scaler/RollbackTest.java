package io.ds2.core.scaler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A rescale after which the job restarts repeatedly, within the rescale timeout, is rolled back to
 * the parallelism the job ran at before, and the loop backs off; one restart, or restarts after the
 * timeout, roll nothing back.
 */
class RollbackTest {
  private static final Instant T0 = TwoVertexJob.T0;
  private static final JobGraph GRAPH = TwoVertexJob.GRAPH;

  private static final Ds2Options OPTIONS =
      Ds2Options.fromMap(
          Map.of(
              "window", "10s",
              "warm-up", "0s",
              "sample-interval", "1s",
              "activation", "1",
              "rescale-timeout", "2m"));

  private Instant now = T0;
  private int work = 1;
  private long restarts = 5;
  private final JobScaler scaler =
      new JobScaler(
          new ScalingPolicy(OPTIONS), DemandScenario.measured(), Mode.ACT, Duration.ofMillis(250));

  /** A poll of the job (see {@link TwoVertexJob}) at Work's parallelism and restarts now. */
  private Step poll() {
    JobSample sample = TwoVertexJob.sample(now, "RUNNING", work, restarts);
    return scaler.step(new ScalerInput.Sampled(GRAPH, sample), now);
  }

  /** Decides a window, asks for Work 3, and sees it applied. */
  private void rescaledToThree() {
    scaler.start(now);
    Step s = poll();
    while (s.next() instanceof ScalerAction.Sample next) {
      now = next.at();
      s = poll();
    }
    assertEquals(Map.of("s", 1, "w", 3), ((ScalerAction.Request) s.next()).target());
    s = scaler.step(new ScalerInput.Answered(new RequestResult.Accepted(Map.of("w", 3))), now);
    now = now.plusSeconds(5);
    s = scaler.step(new ScalerInput.Observed(new RescaleStatus.Applied(Map.of("w", 3))), now);
    assertInstanceOf(ScalerAction.Sample.class, s.next());
    work = 3;
  }

  /** Polls every second for {@code seconds}, a restart every {@code every} polls (0: none). */
  private List<Step> polls(int seconds, int every) {
    List<Step> steps = new ArrayList<>();
    for (int i = 1; i <= seconds; i++) {
      now = now.plusSeconds(1);
      if (every > 0 && i % every == 0) {
        restarts++;
      }
      Step s = poll();
      steps.add(s);
      if (s.next() instanceof ScalerAction.Request) {
        break;
      }
    }
    return steps;
  }

  private static List<ScalerEvent.Problem> rollbacks(List<Step> steps) {
    return steps.stream()
        .flatMap(s -> s.events().stream())
        .filter(
            e ->
                e instanceof ScalerEvent.Problem p
                    && p.kind() == ScalerEvent.Problem.Kind.ROLLED_BACK)
        .map(ScalerEvent.Problem.class::cast)
        .toList();
  }

  @Test
  void aJobThatRestartsRepeatedlyAfterItsRescaleIsRolledBackAndTheLoopBacksOff() {
    rescaledToThree();
    List<Step> steps = polls(60, 10);
    Step last = steps.get(steps.size() - 1);
    assertEquals(
        Map.of("s", 1, "w", 1),
        assertInstanceOf(ScalerAction.Request.class, last.next()).target(),
        "the parallelism from before");
    assertEquals(1, rollbacks(steps).size());
    assertTrue(
        rollbacks(steps)
            .get(0)
            .message()
            .startsWith("the job restarted 2 times since its rescale to"),
        rollbacks(steps).get(0).message());
    // The rollback applies; the next windows hold while backing off, though Work is short again.
    Step s = scaler.step(new ScalerInput.Answered(new RequestResult.Accepted(Map.of("w", 1))), now);
    s = scaler.step(new ScalerInput.Observed(new RescaleStatus.Applied(Map.of("w", 1))), now);
    work = 1;
    List<Step> after = polls(40, 0);
    var decided =
        after.stream()
            .flatMap(x -> x.events().stream())
            .filter(e -> e instanceof ScalerEvent.Decided)
            .map(e -> ((ScalerEvent.Decided) e).decision().action())
            .toList();
    assertFalse(decided.isEmpty());
    assertTrue(decided.stream().allMatch(a -> a instanceof Action.Hold), decided.toString());
  }

  @Test
  void oneRestartOrRestartsAfterTheTimeoutRollNothingBack() {
    rescaledToThree();
    assertEquals(List.of(), rollbacks(polls(30, 20)), "one restart");
    now = now.plus(Duration.ofMinutes(2));
    assertEquals(List.of(), rollbacks(polls(30, 5)), "after the timeout");
  }
}
