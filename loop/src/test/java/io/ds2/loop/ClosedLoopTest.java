package io.ds2.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.VertexDecision;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.SampleJobs;
import io.ds2.workloads.source.RateControl;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The whole loop against a real MiniCluster job with fan-in, started at parallelism 1: it reaches
 * the closed-form oracle and holds, follows a x2 rate step, and after the scale-down delay a x0.5
 * step, never going below the oracle.
 */
class ClosedLoopTest {
  private static final String RATE = "closed-loop-test";
  private static final JobSpec SPEC = SampleJobs.ordersAndPayments().withRateControl(RATE);
  private static final Ds2Options OPTIONS = LoopTestSupport.options();

  private final RecordingListener events = new RecordingListener();

  /** Parallelism by vertex name as the decision found it, and what it asked for. */
  private static Map<String, Integer> byName(Decision d, boolean target) {
    Map<String, Integer> m = new HashMap<>();
    for (VertexDecision v : d.vertices()) {
      m.put(v.name(), target ? v.target() : v.current());
    }
    return m;
  }

  /** Steps until the job runs at {@code oracle} and then holds {@code holds} times. */
  private Phase settle(ControlLoop loop, Map<String, Integer> oracle, int holds, int maxSteps)
      throws Exception {
    Instant start = Instant.now();
    int rescales = 0;
    int held = 0;
    Instant settledAt = null;
    for (int step = 0; step < maxSteps && held < holds; step++) {
      Decision d = loop.step().orElseThrow();
      if (d.action() instanceof Action.Rescale) {
        rescales++;
        held = 0;
        settledAt = null;
        assertInstanceOf(
            RescaleOutcome.Applied.class, events.rescales.get(events.rescales.size() - 1));
      } else if (byName(d, false).equals(oracle)) {
        held++;
        if (settledAt == null) {
          settledAt = d.time();
        }
      }
    }
    assertEquals(holds, held, "settled at the oracle " + oracle + " and held");
    Phase p = new Phase(rescales, Duration.between(start, settledAt));
    System.out.println("phase to " + oracle + ": " + p);
    return p;
  }

  record Phase(int rescales, Duration timeToSettle) {}

  @Test
  void convergesHoldsAndFollowsRateSteps() throws Exception {
    RateControl.set(RATE, 1.0);
    try (LoopTestSupport flink = new LoopTestSupport(SPEC, 4, Map.of())) {
      ControlLoop loop = flink.loop(OPTIONS, Mode.ACT, events);

      Phase start = settle(loop, SPEC.oracle(1), 3, 8);
      assertTrue(start.rescales() <= 2, "from parallelism 1: " + start);

      RateControl.set(RATE, 2.0);
      Phase up = settle(loop, SPEC.oracle(2), 1, 6);
      assertTrue(up.rescales() <= 2, "after x2: " + up);

      RateControl.set(RATE, 1.0);
      int before = events.decisions.size();
      // Two rescales are allowed, each after the scale-down delay (three 6 s windows here: 15 s),
      // and one hold at the oracle: 9 decisions. (A first step that stops above the oracle comes
      // from the highest recommendation during the delay, taken while the x2 backlog drained.)
      Phase down = settle(loop, SPEC.oracle(1), 1, 10);
      assertTrue(down.rescales() <= 2, "after x0.5: " + down);
      // The first lower recommendations waited out the delay, and nothing went below the oracle.
      assertTrue(
          events.decisions.subList(before, events.decisions.size()).stream()
              .anyMatch(
                  d ->
                      d.vertices().stream()
                          .anyMatch(
                              v ->
                                  v.reasons().stream()
                                      .anyMatch(r -> r.code() == ReasonCode.SCALE_DOWN_DELAYED))),
          "scale-down was delayed");
      for (Decision d : events.decisions.subList(before, events.decisions.size())) {
        byName(d, true)
            .forEach(
                (name, p) ->
                    assertTrue(
                        p >= SPEC.oracle(1).get(name),
                        name + " went to " + p + " below the oracle " + SPEC.oracle(1)));
      }
      assertFalse(events.decisions.isEmpty());
    } finally {
      RateControl.clear(RATE);
    }
  }
}
