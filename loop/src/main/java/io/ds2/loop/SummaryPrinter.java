package io.ds2.loop;

import io.ds2.core.policy.Decision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.render.DecisionSummary;
import io.ds2.render.ForecastRendering;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/** The readable one-line-per-event view of the loop, with a time stamp. */
public final class SummaryPrinter implements EventSink {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
  private final PrintWriter out;
  private final Clock clock;

  public SummaryPrinter(PrintWriter out, Clock clock) {
    this.out = out;
    this.clock = clock;
  }

  private void decided(JobTopology t, Decision d, Mode mode) {
    line(DecisionSummary.decision(d, mode));
  }

  private void rescaled(JobTopology t, Map<String, Integer> requested, RescaleOutcome outcome) {
    line(DecisionSummary.rescale(outcome));
  }

  private void problem(ScalerEvent.Problem p) {
    line("problem: " + p.text());
  }

  private void line(String s) {
    out.println(TIME.format(clock.instant()) + " " + s);
    out.flush();
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
      line(ForecastRendering.line(topology == null ? null : topology.graph(), f));
    }
  }
}
