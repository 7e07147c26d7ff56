package io.ds2.recording;

import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.loop.EventSink;
import io.ds2.render.DecisionJson;
import io.ds2.render.DecisionSummary;
import io.ds2.render.ForecastRendering;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;

/**
 * Writes the loop's decisions, forecasts, rescales and problems into a recording as events. A
 * window's forecast (or why there was none) is kept beside its decision: a replay re-forecasts from
 * the recorded demand, but only the live one says what the decision was made with.
 */
public final class RecordingListener implements EventSink {
  private final RecordingWriter writer;
  private final Clock clock;

  public RecordingListener(RecordingWriter writer, Clock clock) {
    this.writer = writer;
    this.clock = clock;
  }

  private void decided(JobTopology t, Decision d, Mode mode) {
    writer.write(
        new Recorded.Event(
            d.time(),
            "decision",
            DecisionSummary.decision(d, mode),
            DecisionJson.decision(t, d, mode)));
    if (d.action() instanceof Action.Rescale r && mode == Mode.ACT) {
      var details = RecordingFormat.MAPPER.createObjectNode();
      r.parallelism().forEach(details.putObject("requested")::put);
      Map<String, Integer> byName = new java.util.LinkedHashMap<>();
      d.vertices().forEach(v -> byName.put(v.name(), r.parallelism().get(v.vertexId())));
      writer.write(
          new Recorded.Event(d.time(), "rescale-requested", "requested " + byName, details));
    }
  }

  private void rescaled(JobTopology t, Map<String, Integer> requested, RescaleOutcome outcome) {
    var details = DecisionJson.rescale(t, requested, outcome, clock.instant());
    writer.write(
        new Recorded.Event(
            clock.instant(),
            "rescale-" + details.path("outcome").asText(),
            DecisionSummary.rescale(outcome).strip(),
            details));
  }

  /** The window's forecast, or why there was none, as a recording's event at {@code time}. */
  public static Recorded.Event forecast(JobTopology t, ScalerEvent.Forecasted f, Instant time) {
    var graph = t == null ? null : t.graph();
    return new Recorded.Event(
        time, "forecast", ForecastRendering.line(graph, f), ForecastRendering.json(graph, f, time));
  }

  private void problem(ScalerEvent.Problem p) {
    writer.write(
        new Recorded.Event(
            clock.instant(),
            "problem",
            p.text(),
            RecordingFormat.MAPPER.createObjectNode().put("kind", p.kind().name())));
  }

  @Override
  public void on(JobTopology topology, ScalerEvent event) {
    if (event instanceof ScalerEvent.Decided d) {
      decided(topology, d.decision(), d.mode());
    } else if (event instanceof ScalerEvent.Rescaled r) {
      rescaled(topology, r.requested(), r.outcome());
    } else if (event instanceof ScalerEvent.Problem p) {
      problem(p);
    } else if (event instanceof ScalerEvent.Forecasted f) {
      writer.write(forecast(topology, f, clock.instant()));
    }
  }
}
