package io.ds2.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.VertexDecision;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.SampleJobs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Per-record cost grows with parallelism (8 % per instance): the loop reaches the oracle in at most
 * three rescales and its parallelism only ever rises (no oscillation).
 */
class SubLinearLoopTest {
  private static final JobSpec SPEC = SampleJobs.subLinear();
  // Flink chains Sink to Work: the vertex that scales sub-linearly.
  private static final String WORK = SPEC.vertexOf("Work");

  @Test
  void convergesMonotonicallyWithinThreeRescales() throws Exception {
    RecordingListener events = new RecordingListener();
    try (LoopTestSupport flink = new LoopTestSupport(SPEC, 4, Map.of())) {
      ControlLoop loop = flink.loop(LoopTestSupport.options(), Mode.ACT, events);
      List<Integer> work = new ArrayList<>();
      int holds = 0;
      for (int step = 0; step < 8 && holds < 2; step++) {
        Decision d = loop.step().orElseThrow();
        VertexDecision w =
            d.vertices().stream().filter(v -> v.name().equals(WORK)).findFirst().orElseThrow();
        work.add(w.current());
        if (d.action() instanceof Action.Rescale) {
          holds = 0;
          assertInstanceOf(
              RescaleOutcome.Applied.class, events.rescales.get(events.rescales.size() - 1));
        } else {
          holds++;
        }
      }
      System.out.println(
          "Work parallelism per decision: " + work + ", rescales: " + events.rescales.size());
      assertEquals(SPEC.oracle().get(WORK), work.get(work.size() - 1), "oracle, after " + work);
      assertEquals(2, holds, "held at the oracle");
      assertTrue(events.rescales.size() <= 3, "rescales: " + events.rescales.size());
      for (int i = 1; i < work.size(); i++) {
        assertTrue(work.get(i) >= work.get(i - 1), "monotone, no oscillation: " + work);
      }
    }
  }
}
