package io.ds2.whatif.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.Action;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.ScalerEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The real loop on a job learnt as a fluid, over compressed days (20 minutes each: night 90/s, a
 * ramp to 380/s from minute 6 to 8, held to minute 14, down by 15): Work costs 10 ms a record, so
 * the night needs 1 instance and the peak 4.
 */
class CounterfactualTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final double DAY_S = 20 * 60;

  private static double daily(double t) {
    double m = (t % DAY_S) / 60;
    if (m < 6 || m >= 15) {
      return 90;
    }
    if (m < 8) {
      return 90 + 145 * (m - 6);
    }
    return m < 14 ? 380 : 380 - 290 * (m - 14);
  }

  private static LearnedJob job(int days) {
    JobGraph graph =
        JobGraph.of(
            List.of(new Vertex("s", "Source: Events", 128), new Vertex("w", "Work", 128)),
            List.of(new Edge("s", "w", "REBALANCE")));
    List<LearnedJob.DemandStep> demand = new ArrayList<>();
    for (int t = 0; t <= days * DAY_S; t += 10) {
      demand.add(new LearnedJob.DemandStep(T0.plusSeconds(t), Map.of("s", daily(t))));
    }
    return new LearnedJob(
        new JobTopology("job", "events", graph),
        Map.of("s", 1, "w", 1),
        Map.of("w", 100.0),
        Map.of("s", 1.0, "w", 1.0),
        Map.of("s", 1.0, "w", 1.0),
        demand,
        Duration.ofSeconds(2),
        T0,
        T0.plusSeconds((long) (days * DAY_S)));
  }

  private static Ds2Options options(String forecast) {
    return Ds2Options.fromMap(
        Map.of(
            "window", "10s",
            "warm-up", "5s",
            "sample-interval", "1s",
            "scale-down-delay", "30s",
            "forecast", forecast,
            "forecast-period", "20m",
            "forecast-bucket", "1m"));
  }

  @Test
  void theRealLoopKeepsTheSimulatedJobUpAndScalesItWithTheDay() {
    List<Map<String, Integer>> rescales = new ArrayList<>();
    Outcome reactive =
        Counterfactual.run(
            job(2),
            options("off"),
            (JobTopology t, ScalerEvent e) -> {
              if (e instanceof ScalerEvent.Decided d
                  && d.decision().action() instanceof Action.Rescale r) {
                rescales.add(r.parallelism());
              }
            });
    assertEquals(2 * DAY_S, reactive.seconds(), 1);
    assertTrue(rescales.stream().anyMatch(p -> p.get("w") >= 4), rescales.toString());
    assertTrue(rescales.stream().anyMatch(p -> p.get("w") == 1), "down at night: " + rescales);
    assertEquals(rescales.size(), reactive.rescales());
    // Behind on each ramp for a window and a restart or so, not all day.
    assertTrue(
        reactive.behindSeconds() > 0 && reactive.behindSeconds() < 0.2 * DAY_S,
        "" + reactive.behindSeconds());
  }

  @Test
  void actingOnTheForecastIsBehindForFewerSecondsThanReacting() {
    Outcome reactive = Counterfactual.run(job(4), options("off"), (t, e) -> {});
    Outcome predictive = Counterfactual.run(job(4), options("act"), (t, e) -> {});
    System.out.printf(
        "behind: reactive %.0f s, predictive %.0f s; slot-s %.0f / %.0f; rescales %d / %d%n",
        reactive.behindSeconds(),
        predictive.behindSeconds(),
        reactive.slotSeconds(),
        predictive.slotSeconds(),
        reactive.rescales(),
        predictive.rescales());
    assertTrue(
        predictive.behindSeconds() < reactive.behindSeconds(),
        predictive.behindSeconds() + " s behind vs " + reactive.behindSeconds());
  }
}
