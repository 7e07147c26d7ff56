package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.forecast.Outlook;
import io.ds2.core.forecast.SeasonalForecaster;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.scaler.JobScaler;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.core.scaler.StateStore;
import io.ds2.loop.ControlLoop;
import io.ds2.testkit.FakeJob;
import io.ds2.testkit.FluidJob;
import io.ds2.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The operator's metrics keep only the jobs it manages: a forgotten job leaves no series. */
class OperatorMetricsTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final OperatorMetrics metrics = new OperatorMetrics();

  /** One job's real loop on a fake job, reporting to the metrics as {@code resource}. */
  private void decideAndRescale(String resource) throws Exception {
    FakeJob job =
        new FakeJob(
            resource,
            clock,
            300,
            List.of(
                new FluidJob.Stage("s", "Source: In", 0, 1),
                new FluidJob.Stage("p", "Parse", 0.0111, 0)));
    ScalingPolicy policy =
        new ScalingPolicy(
            Ds2Options.fromMap(
                Map.of("window", "6s", "warm-up", "4s", "sample-interval", "500ms")));
    var listener = metrics.listenerFor("ns", resource);
    new ControlLoop(
            job,
            new JobScaler(policy, DemandScenario.measured(), Mode.ACT, job.pollInterval()),
            job,
            StateStore.inMemory(),
            listener,
            clock::advance,
            clock)
        .step();
    listener.on(
        null,
        new ScalerEvent.Problem(ScalerEvent.Problem.Kind.SAMPLING_FAILED, "x", Duration.ZERO));
  }

  @Test
  void aForgottenJobLeavesNoSeriesBehind() throws Exception {
    decideAndRescale("a");
    decideAndRescale("b");
    long ofB = seriesOf("b");
    assertEquals(ofB, seriesOf("a"), metrics.text());
    assertTrue(metrics.text().contains("ds2_last_decision_timestamp_seconds{"), metrics.text());
    metrics.forget("ns", "a");
    assertEquals(0, seriesOf("a"), "series of the forgotten job remain:\n" + metrics.text());
    assertEquals(ofB, seriesOf("b"), "the other job's series are kept");
  }

  @Test
  void aForecastShowsItsPeakAndTheParallelismItWouldLeadToUntilTheJobIsForgotten() {
    JobGraph graph =
        JobGraph.of(
            List.of(new Vertex("s", "Source: In", 128), new Vertex("p", "Parse", 128)),
            List.of(new Edge("s", "p", "REBALANCE")));
    var listener = metrics.listenerFor("ns", "f");
    listener.on(
        new JobTopology("id", "f", graph),
        new ScalerEvent.Forecasted(
            new Outlook.Ahead(
                Duration.ofSeconds(90),
                Map.of("Source: In", 300.0),
                Map.of("Source: In", 450.0),
                0.06,
                Set.of()),
            Map.of("s", 1, "p", 4),
            Map.of("p", 6),
            false));
    String text = metrics.text();
    assertTrue(
        text.contains(
            "ds2_source_forecast_rate{namespace=\"ns\",resource=\"f\",vertex=\"Source: In\"} 450.0"),
        text);
    assertTrue(
        text.contains(
            "ds2_vertex_forecast_parallelism{namespace=\"ns\",resource=\"f\",vertex=\"Parse\"} 6.0"),
        text);
    assertTrue(
        text.contains(
            "ds2_vertex_forecast_parallelism{namespace=\"ns\",resource=\"f\",vertex=\"Source: In\"} 1.0"),
        "a vertex the forecast leaves as measured shows its measured need:\n" + text);
    // No forecast (not enough history): the series are not touched.
    listener.on(
        new JobTopology("id", "f", graph),
        new ScalerEvent.Forecasted(
            new Outlook.None(SeasonalForecaster.Reason.NOT_ENOUGH_HISTORY, "Source: In", "x"),
            Map.of("s", 1, "p", 4),
            Map.of(),
            false));
    assertEquals(text, metrics.text());
    metrics.forget("ns", "f");
    assertEquals(0, seriesOf("f"), metrics.text());
  }

  private long seriesOf(String resource) {
    return metrics
        .text()
        .lines()
        .filter(l -> !l.startsWith("#") && l.contains("resource=\"" + resource + "\""))
        .count();
  }
}
