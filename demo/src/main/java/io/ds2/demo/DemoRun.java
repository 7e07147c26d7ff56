package io.ds2.demo;

import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.loop.EventSink;
import io.ds2.render.DecisionJson;
import io.ds2.render.DecisionSummary;
import io.ds2.workloads.JobSpec;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demo's script and its record: phase 1 at the base rate, phase 2 at twice the rate once the
 * loop has settled; a phase is settled after two decisions in a row that change nothing.
 */
final class DemoRun implements EventSink {
  private static final int SETTLING_HOLDS = 2;

  record Phase(
      double rateFactor,
      Instant start,
      List<RescaleOutcome.Applied> rescales,
      Instant settledAt,
      Map<String, Integer> finalParallelism) {}

  private final JobSpec job;
  private final Clock clock;
  private final PrintWriter out;
  private final boolean json;
  private final List<Phase> phases = new ArrayList<>();
  private Instant phaseStart;
  private double factor = 1;
  private List<RescaleOutcome.Applied> downtimes = new ArrayList<>();
  private Instant holdsSince;
  private int holds;
  private Map<String, Integer> running = Map.of();

  DemoRun(JobSpec job, Clock clock, PrintWriter out, boolean json) {
    this.job = job;
    this.clock = clock;
    this.out = out;
    this.json = json;
    this.phaseStart = clock.instant();
  }

  double factor() {
    return factor;
  }

  /** True once the current phase has settled (the caller then changes the rate or stops). */
  boolean settled() {
    return holds >= SETTLING_HOLDS;
  }

  /** Closes the current phase; the next one runs at {@code nextFactor} times the base rate. */
  void nextPhase(double nextFactor) {
    phases.add(new Phase(factor, phaseStart, downtimes, holdsSince, running));
    factor = nextFactor;
    phaseStart = clock.instant();
    downtimes = new ArrayList<>();
    holds = 0;
    holdsSince = null;
  }

  private void decided(JobTopology t, Decision d, Mode mode) {
    Map<String, Integer> current = new LinkedHashMap<>();
    d.vertices().forEach(v -> current.put(v.name(), v.current()));
    running = current;
    boolean quiet =
        d.action() instanceof Action.Hold h && h.reason().code() == ReasonCode.NO_CHANGE;
    if (quiet) {
      holds++;
      if (holdsSince == null) {
        holdsSince = d.time();
      }
    } else {
      holds = 0;
      holdsSince = null;
    }
    if (json) {
      out.println(DecisionJson.decision(t, d, mode));
    } else {
      out.println(DecisionSummary.decision(d, mode));
      out.print(DemoTable.render(d, job.oracle(factor)));
    }
    out.flush();
  }

  private void rescaled(JobTopology t, Map<String, Integer> requested, RescaleOutcome outcome) {
    if (outcome instanceof RescaleOutcome.Applied a) {
      downtimes.add(a);
    }
    if (!json) {
      out.println(DecisionSummary.rescale(outcome));
      out.flush();
    }
  }

  private void problem(ScalerEvent.Problem p) {
    if (!json) {
      out.println("problem: " + p.text());
      out.flush();
    }
  }

  /** The summary of every phase so far (the current one if unfinished, marked so). */
  String summary() {
    List<Phase> all = new ArrayList<>(phases);
    all.add(new Phase(factor, phaseStart, downtimes, holdsSince, running));
    StringBuilder sb = new StringBuilder("Summary\n");
    for (Phase p : all) {
      Map<String, Integer> needed = job.oracle(p.rateFactor());
      sb.append(
          String.format(
              Locale.ROOT,
              "  rate x%.0f: %d rescale step(s), %s; final %s, needed %s%s%n",
              p.rateFactor(),
              p.rescales().size(),
              p.settledAt() == null
                  ? "not settled"
                  : String.format(
                      Locale.ROOT,
                      "settled %.0f s after %s",
                      Duration.between(p.start(), p.settledAt()).toMillis() / 1000.0,
                      p.rateFactor() == 1 ? "start" : "the rate step"),
              p.finalParallelism(),
              needed,
              p.finalParallelism().equals(needed) ? " (exact)" : ""));
      for (RescaleOutcome.Applied a : p.rescales()) {
        sb.append(
            String.format(
                Locale.ROOT,
                "    rescale: down at most %.1f s; %.1f s from request to running at the new parallelism%n",
                a.downtime().toMillis() / 1000.0,
                a.took().toMillis() / 1000.0));
      }
    }
    return sb.toString();
  }

  /** The summary as data, for {@code -o json}. */
  String summaryJson() {
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    var root = mapper.createObjectNode().put("type", "summary");
    var arr = root.putArray("phases");
    List<Phase> all = new ArrayList<>(phases);
    all.add(new Phase(factor, phaseStart, downtimes, holdsSince, running));
    for (Phase p : all) {
      var n = arr.addObject();
      n.put("rateFactor", p.rateFactor());
      n.put("rescaleSteps", p.rescales().size());
      if (p.settledAt() != null) {
        n.put("secondsToSettle", Duration.between(p.start(), p.settledAt()).toMillis() / 1000.0);
      } else {
        n.putNull("secondsToSettle");
      }
      var fin = n.putObject("finalParallelism");
      p.finalParallelism().forEach(fin::put);
      var need = n.putObject("neededParallelism");
      job.oracle(p.rateFactor()).forEach(need::put);
      var dt = n.putArray("rescales");
      for (RescaleOutcome.Applied a : p.rescales()) {
        dt.addObject()
            .put("downtimeSeconds", a.downtime().toMillis() / 1000.0)
            .put("seconds", a.took().toMillis() / 1000.0);
      }
    }
    return root.toString();
  }

  @Override
  public void on(JobTopology topology, ScalerEvent event) {
    if (event instanceof ScalerEvent.Decided d) {
      decided(topology, d.decision(), d.mode());
    } else if (event instanceof ScalerEvent.Rescaled r) {
      rescaled(topology, r.requested(), r.outcome());
    } else if (event instanceof ScalerEvent.Problem p) {
      problem(p);
    }
  }
}
