package io.ds2.whatif;

import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.graph.SlotSharing;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.VertexDecision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.core.window.VertexObservation;
import io.ds2.recording.Recorded;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What a replay found, gathered as it runs: one point per decided window (for charts), the rescales
 * the policy would have made, the capacity plan and what the recording itself logged. Grows with
 * the number of windows, never with the number of samples.
 */
public final class WhatIfSummary implements WhatIf.Listener {
  // The time of the last replayed sample: when a problem of the replay happened.
  private Instant replayedTo;
  // Problems and recorded events beyond these are counted, not kept.
  private static final int MAX_KEPT = 500;

  /** One vertex in one window. Empty values were not measurable in that window. */
  public record VertexPoint(
      String id,
      int current,
      int recommended,
      int target,
      double observedOutputRate,
      OptionalDouble busyRatio,
      OptionalDouble trueRatePerInstance,
      OptionalDouble targetInputRate,
      OptionalDouble demand,
      OptionalDouble pendingRecords) {}

  /** One decided window. */
  public record WindowPoint(
      Instant time, boolean rescale, String action, List<VertexPoint> vertices) {}

  /**
   * A rescale the policy would have requested; {@code windows} counts the consecutive windows that
   * asked for the same change (after a rescale that never happened the job keeps its recorded
   * parallelism, so the policy keeps asking).
   */
  public record WouldRescale(
      Instant time, Map<String, Integer> from, Map<String, Integer> to, String why, int windows) {}

  /** The capacity plan of one vertex at the scenario's demand. */
  public record PlanRow(
      String id,
      String name,
      boolean source,
      int current,
      int recommended,
      int peak,
      Instant peakAt,
      OptionalDouble trueRatePerInstance,
      OptionalDouble targetInputRate,
      String slotSharingGroup) {}

  /** A line of the recording's own log, or a problem met during the replay. */
  public record Note(Instant time, String kind, String message) {}

  private final boolean keepWindows;
  private final List<WindowPoint> windows = new ArrayList<>();
  private final List<WouldRescale> rescales = new ArrayList<>();
  private final Map<String, PlanRow> plan = new LinkedHashMap<>();
  private final Map<String, String> names = new LinkedHashMap<>();
  private final Map<String, String> eventNames = new LinkedHashMap<>();
  private final List<Note> recordedEvents = new ArrayList<>();
  private final List<Note> problems = new ArrayList<>();
  private long recordedEventCount;
  private long problemCount;

  /**
   * @param keepWindows keep one point per window (for charts): memory grows with the windows
   */
  public WhatIfSummary(boolean keepWindows) {
    this.keepWindows = keepWindows;
  }

  private void decided(JobTopology topology, Decision d) {
    topology.graph().topologicalOrder().forEach(v -> names.put(v.id(), v.name()));
    List<VertexPoint> points = new ArrayList<>();
    for (VertexDecision v : d.vertices()) {
      VertexEstimate e = d.estimate().vertex(v.vertexId()).orElseThrow();
      VertexObservation o = d.estimate().window().vertex(v.vertexId()).orElseThrow();
      SourceDemand demand = d.estimate().demands().get(v.vertexId());
      points.add(
          new VertexPoint(
              v.vertexId(),
              v.current(),
              v.recommended(),
              v.target(),
              o.observedOutputRate(),
              o.busyRatio(),
              e.trueProcessingRatePerInstance(),
              e.targetInputRate(),
              demand == null ? OptionalDouble.empty() : OptionalDouble.of(demand.targetRate()),
              o.backlog()
                  .map(b -> OptionalDouble.of(b.pendingAtEnd()))
                  .orElse(OptionalDouble.empty())));
      String group =
          topology
              .graph()
              .vertex(v.vertexId())
              .map(SlotSharing::groupOf)
              .orElse(SlotSharing.DEFAULT_GROUP);
      updatePlan(d.time(), v, e, group);
    }
    String action = d.action() instanceof Action.Hold h ? h.reason().code().name() : "RESCALE";
    if (keepWindows) {
      windows.add(new WindowPoint(d.time(), d.rescales(), action, points));
    }
    if (d.action() instanceof Action.Rescale r) {
      noteRescale(d, r);
    }
  }

  private void updatePlan(Instant time, VertexDecision v, VertexEstimate e, String group) {
    PlanRow old = plan.get(v.vertexId());
    boolean peak = old == null || v.recommended() > old.peak();
    plan.put(
        v.vertexId(),
        new PlanRow(
            v.vertexId(),
            v.name(),
            v.source(),
            v.current(),
            v.recommended(),
            peak ? v.recommended() : old.peak(),
            peak ? time : old.peakAt(),
            e.trueProcessingRatePerInstance(),
            e.targetInputRate(),
            group));
  }

  private void noteRescale(Decision d, Action.Rescale r) {
    Map<String, Integer> from = new LinkedHashMap<>();
    Map<String, Integer> to = new LinkedHashMap<>();
    List<String> why = new ArrayList<>();
    for (VertexDecision v : d.vertices()) {
      if (v.target() != v.current()) {
        from.put(v.name(), v.current());
        to.put(v.name(), r.parallelism().get(v.vertexId()));
        VertexEstimate e = d.estimate().vertex(v.vertexId()).orElseThrow();
        StringBuilder w = new StringBuilder(v.name()).append(": ");
        if (e.targetInputRate().isPresent()
            && e.trueProcessingRatePerInstance().isPresent()
            && e.requiredParallelism().isPresent()) {
          w.append(
              String.format(
                  java.util.Locale.ROOT,
                  "%.1f records/s to absorb at %.1f/s per instance needs %.2f -> %d",
                  e.targetInputRate().getAsDouble(),
                  e.trueProcessingRatePerInstance().getAsDouble(),
                  e.requiredParallelism().getAsDouble(),
                  v.recommended()));
        }
        v.reasons().forEach(reason -> w.append("; ").append(reason.message()));
        why.add(w.toString());
      }
    }
    int last = rescales.size() - 1;
    if (last >= 0 && rescales.get(last).from().equals(from) && rescales.get(last).to().equals(to)) {
      WouldRescale same = rescales.get(last);
      rescales.set(last, new WouldRescale(same.time(), from, to, same.why(), same.windows() + 1));
      return;
    }
    String because =
        why.isEmpty() ? "DS2 recommends it at the scenario's demand" : String.join("; ", why);
    rescales.add(new WouldRescale(d.time(), from, to, because, 1));
  }

  private void problem(Instant time, String message) {
    problemCount++;
    if (problems.size() < MAX_KEPT) {
      problems.add(new Note(time, "problem", message));
    }
  }

  /**
   * The recording's own events, decisions and forecasts aside (the replay makes its own): described
   * from their details with vertex names, kept in time order.
   */
  @Override
  public void replayed(Recorded record) {
    if (record instanceof Recorded.Sample sample) {
      replayedTo = sample.sample().time();
    }
    if (record instanceof Recorded.Topology t) {
      t.topology().graph().topologicalOrder().forEach(v -> eventNames.put(v.id(), v.name()));
    } else if (record instanceof Recorded.Event e
        && !"decision".equals(e.kind())
        && !"forecast".equals(e.kind())) {
      recordedEventCount++;
      if (recordedEvents.size() < MAX_KEPT) {
        recordedEvents.add(new Note(e.time(), e.kind(), RecordedEventText.describe(e, eventNames)));
      }
    }
  }

  public List<WindowPoint> windows() {
    return List.copyOf(windows);
  }

  public List<WouldRescale> rescales() {
    return List.copyOf(rescales);
  }

  /** Per vertex, in the order of the last graph seen. */
  public List<PlanRow> plan() {
    List<PlanRow> rows = new ArrayList<>();
    names
        .keySet()
        .forEach(
            id -> {
              if (plan.containsKey(id)) {
                rows.add(plan.get(id));
              }
            });
    return rows;
  }

  public String name(String vertexId) {
    return names.getOrDefault(vertexId, vertexId);
  }

  /** The recording's events (decisions aside) in time order, at most the first 500. */
  public List<Note> recordedEvents() {
    return recordedEvents.stream().sorted(java.util.Comparator.comparing(Note::time)).toList();
  }

  public long recordedEventCount() {
    return recordedEventCount;
  }

  public List<Note> problems() {
    return List.copyOf(problems);
  }

  public long problemCount() {
    return problemCount;
  }

  /**
   * Slots the plan needs: per slot-sharing group its widest vertex, summed (at the peak, each
   * vertex's own peak: at most that).
   */
  public static int slots(List<PlanRow> rows, boolean peak) {
    return SlotSharing.held(
        rows, PlanRow::slotSharingGroup, r -> peak ? r.peak() : r.recommended());
  }

  /** How the slot count is made, for its label: one slot-sharing group, or how many. */
  public static String slotGroups(List<PlanRow> rows) {
    long groups = rows.stream().map(PlanRow::slotSharingGroup).distinct().count();
    return groups <= 1 ? "one slot-sharing group" : groups + " slot-sharing groups, summed";
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
