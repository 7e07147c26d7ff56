package io.ds2.loop;

import io.ds2.core.policy.Decision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.render.DecisionJson;
import io.ds2.render.ForecastRendering;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Clock;
import java.util.Map;

/**
 * Appends one JSON object per line for every decision, rescale, problem and forecast, flushed per
 * line so a crash loses nothing already decided.
 */
public final class DecisionLog implements EventSink, AutoCloseable {
  private final BufferedWriter out;
  private final Clock clock;

  public DecisionLog(Writer out, Clock clock) {
    this.out = new BufferedWriter(out);
    this.clock = clock;
  }

  private void decided(JobTopology t, Decision d, Mode mode) {
    write(DecisionJson.decision(t, d, mode).toString());
  }

  private void rescaled(JobTopology t, Map<String, Integer> requested, RescaleOutcome outcome) {
    write(DecisionJson.rescale(t, requested, outcome, clock.instant()).toString());
  }

  private void problem(ScalerEvent.Problem p) {
    write(DecisionJson.problem(p, clock.instant()).toString());
  }

  private void write(String line) {
    try {
      out.write(line);
      out.newLine();
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the decision log: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() throws IOException {
    out.close();
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
      write(
          ForecastRendering.json(topology == null ? null : topology.graph(), f, clock.instant())
              .toString());
    }
  }
}
