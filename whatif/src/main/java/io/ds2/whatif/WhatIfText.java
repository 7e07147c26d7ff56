package io.ds2.whatif;

import io.ds2.core.policy.Decision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.recording.Recorded;
import io.ds2.render.DecisionSummary;
import io.ds2.render.TextTable;
import io.ds2.whatif.WhatIfSummary.PlanRow;
import io.ds2.whatif.WhatIfSummary.WouldRescale;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/** A replay for people: one line per window as it is decided, then the plan and the rescales. */
public final class WhatIfText implements WhatIf.Listener {
  // The time of the last replayed sample: when a problem of the replay happened.
  private Instant replayedTo;
  private final PrintWriter out;

  public WhatIfText(PrintWriter out) {
    this.out = out;
  }

  public void start(Recorded.Header h, String input, String scenario) {
    out.printf(
        "Replaying %s: job %s (%s)%s, recorded from %s%n",
        input,
        h.jobName(),
        h.jobId(),
        h.flinkVersion().map(v -> ", Flink " + v).orElse(""),
        h.source());
    out.println("Demand: " + scenario);
    out.flush();
  }

  private void decided(JobTopology topology, Decision d) {
    out.println(d.time() + "  " + DecisionSummary.decision(d, Mode.DRY_RUN));
    out.flush();
  }

  private void problem(Instant time, String message) {
    out.println(time + "  no decision: " + message);
    out.flush();
  }

  @Override
  public void replayed(Recorded record) {
    if (record instanceof Recorded.Sample s) {
      replayedTo = s.sample().time();
    }
  }

  public void finish(
      WhatIfSummary s,
      WhatIf.Totals totals,
      String scenario,
      long skippedLines,
      String firstSkipped) {
    List<PlanRow> plan = s.plan();
    out.println();
    if (plan.isEmpty()) {
      out.println("No clean window in the recording: no capacity plan.");
    } else {
      out.println("Capacity plan at " + scenario + " (last window; peak over all windows):");
      List<String[]> rows = new ArrayList<>();
      rows.add(
          new String[] {
            "VERTEX",
            "CURRENT",
            "RECOMMENDED",
            "PEAK",
            "PEAK AT",
            "TRUE RATE/INSTANCE",
            "TARGET INPUT"
          });
      for (PlanRow r : plan) {
        rows.add(
            new String[] {
              r.name(),
              String.valueOf(r.current()),
              String.valueOf(r.recommended()),
              String.valueOf(r.peak()),
              r.peakAt().toString(),
              rate(r.trueRatePerInstance()),
              rate(r.targetInputRate())
            });
      }
      out.print(TextTable.render(rows));
      out.printf(
          "Slots (%s): %d for the last window, %d at the peak%n",
          WhatIfSummary.slotGroups(plan),
          WhatIfSummary.slots(plan, false),
          WhatIfSummary.slots(plan, true));
    }
    out.println();
    List<WouldRescale> rescales = s.rescales();
    out.println("Rescales the policy would have made: " + rescales.size());
    for (WouldRescale r : rescales) {
      out.printf(
          "  %s  %s%s%n    because %s%n",
          r.time(),
          changes(r.from(), r.to()),
          r.windows() > 1 ? " (asked in " + r.windows() + " consecutive windows)" : "",
          r.why());
    }
    if (s.recordedEventCount() > 0) {
      out.println();
      out.println(
          "Recorded events: "
              + s.recordedEventCount()
              + (s.recordedEventCount() > SHOWN_EVENTS ? " (the first " + SHOWN_EVENTS + ")" : ""));
      s.recordedEvents().stream()
          .limit(SHOWN_EVENTS)
          .forEach(e -> out.printf("  %s  %s: %s%n", e.time(), e.kind(), e.message()));
    }
    out.println();
    Duration span =
        totals.from() == null ? Duration.ZERO : Duration.between(totals.from(), totals.to());
    out.printf(
        Locale.ROOT,
        "Replayed %d samples over %s into %d windows; %d without a decision.%n",
        totals.samples(),
        human(span),
        totals.decisions(),
        totals.problems());
    if (skippedLines > 0) {
      out.printf("Skipped %d bad line(s); the first: %s%n", skippedLines, firstSkipped);
    }
    out.flush();
  }

  private static final int SHOWN_EVENTS = 20;

  static String changes(Map<String, Integer> from, Map<String, Integer> to) {
    return from.keySet().stream()
        .map(v -> v + " " + from.get(v) + "->" + to.get(v))
        .collect(Collectors.joining(", "));
  }

  static String human(Duration d) {
    long s = d.toSeconds();
    return s >= 3600
        ? String.format(Locale.ROOT, "%dh %02dm", s / 3600, s / 60 % 60)
        : String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
  }

  private static String rate(OptionalDouble r) {
    return r.isPresent() ? String.format(Locale.ROOT, "%.1f/s", r.getAsDouble()) : "-";
  }

  @Override
  public void on(JobTopology topology, ScalerEvent event) {
    if (event instanceof ScalerEvent.Decided d) {
      decided(topology, d.decision());
    } else if (event instanceof ScalerEvent.Problem p) {
      problem(replayedTo, p.text());
    }
  }
}
