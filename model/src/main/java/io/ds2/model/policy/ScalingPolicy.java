package io.ds2.model.policy;

import io.ds2.model.estimate.Estimate;
import io.ds2.model.estimate.Reason;
import io.ds2.model.estimate.ReasonCode;
import io.ds2.model.graph.JobGraph;
import io.ds2.model.options.Ds2Options;
import io.ds2.model.policy.VertexTargets.Proposal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The loop's memory: turns each clean window's estimate into a decision. A change is made only when
 * it has persisted in the same direction for {@code activation} windows (then the smallest of those
 * changes); a scale-down only after recommendations stayed lower for the whole {@code
 * scale-down-delay} (to the highest of them); nothing while backing off from an unmet rescale, and
 * nothing on an incomplete estimate. Time comes from the injected clock.
 */
public final class ScalingPolicy implements DecisionPolicy {
  private final Ds2Options options;
  private final Clock clock;
  private final EfficiencyModel efficiency = new EfficiencyModel();
  private final Deque<Map<String, Integer>> recent = new ArrayDeque<>();
  private final Map<String, ScaleDown> pendingScaleDowns = new HashMap<>();
  private final Map<String, DelayNote> delayNotes = new HashMap<>();
  private Optional<Instant> backoffUntil = Optional.empty();
  private boolean heldForShift;

  /** A vertex whose recommendations have been below its parallelism since {@code since}. */
  public record ScaleDown(Instant since, int highest) {}

  /**
   * What the policy must not forget across a controller restart: pending scale-downs (so the delay
   * is not restarted) and a back-off (so an unmet rescale is not retried at once). Bounded by the
   * number of vertices.
   */
  public record State(Map<String, ScaleDown> scaleDowns, Optional<Instant> backoffUntil) {
    public State {
      scaleDowns = Map.copyOf(scaleDowns);
    }
  }

  public State state() {
    return new State(pendingScaleDowns, backoffUntil);
  }

  /** Continues from a saved state (e.g. after a controller restart). */
  public void restore(State saved) {
    pendingScaleDowns.clear();
    delayNotes.clear();
    pendingScaleDowns.putAll(saved.scaleDowns());
    backoffUntil = saved.backoffUntil();
  }

  public ScalingPolicy(Ds2Options options, Clock clock) {
    this.options = options;
    this.clock = clock;
  }

  @Override
  public Ds2Options options() {
    return options;
  }

  @Override
  public Clock clock() {
    return clock;
  }

  @Override
  public Decision decide(JobGraph graph, Estimate estimate) {
    Instant now = clock.instant();
    estimate.vertices().forEach(efficiency::observe);
    List<Proposal> proposals = VertexTargets.propose(graph, estimate, efficiency, options);
    if (!estimate.complete()) {
      recent.clear();
      return hold(
          now,
          estimate,
          proposals,
          Map.of(),
          ReasonCode.ESTIMATE_INCOMPLETE,
          "some vertices could not be estimated; nothing is changed on partial information");
    }
    Optional<String> shift = shiftOf(graph, estimate);
    // A window across a load change sizes for neither load: wait for the next one, but only once,
    // so that a steady ramp is still followed.
    if (shift.isPresent() && !heldForShift) {
      heldForShift = true;
      return hold(
          now,
          estimate,
          proposals,
          Map.of(),
          ReasonCode.DEMAND_SHIFTED,
          shift.get() + " during the window; deciding on the next window");
    }
    heldForShift = false;
    // Sized for every vertex: growing maps of 1,000 ids rehashes them seven times.
    int capacity = 2 * proposals.size();
    Map<String, Integer> window = new HashMap<>(capacity);
    proposals.forEach(p -> window.put(p.estimate().vertexId(), p.proposed()));
    recent.addLast(window);
    while (recent.size() > options.activation()) {
      recent.removeFirst();
    }
    Map<String, List<Reason>> extra = new HashMap<>();
    Map<String, Integer> targets = new LinkedHashMap<>(capacity);
    for (Proposal p : proposals) {
      targets.put(p.estimate().vertexId(), target(p, now, extra));
    }
    boolean changes =
        proposals.stream()
            .anyMatch(
                p -> targets.get(p.estimate().vertexId()) != p.estimate().currentParallelism());
    if (backoffUntil.isPresent() && now.isBefore(backoffUntil.get())) {
      return hold(
          now,
          estimate,
          proposals,
          extra,
          ReasonCode.BACKING_OFF,
          "a recent rescale was not applied by Flink; trying again after " + backoffUntil.get());
    }
    if (changes) {
      return new Decision(
          now, estimate, vertexDecisions(proposals, targets, extra), new Action.Rescale(targets));
    }
    return hold(now, estimate, proposals, extra, holdCode(extra), holdMessage(extra));
  }

  private static Optional<String> shiftOf(JobGraph graph, Estimate estimate) {
    List<String> shifted = new ArrayList<>();
    estimate
        .demands()
        .forEach(
            (id, d) ->
                d.shift()
                    .ifPresent(
                        s ->
                            shifted.add(
                                String.format(
                                    java.util.Locale.ROOT,
                                    "the load of %s changed from %.1f to %.1f records/s",
                                    graph.vertex(id).map(v -> v.name()).orElse(id),
                                    s.early(),
                                    s.late()))));
    return shifted.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", shifted));
  }

  /** Per vertex: activation over the recent windows, then the scale-down delay. */
  private int target(Proposal p, Instant now, Map<String, List<Reason>> extra) {
    String id = p.estimate().vertexId();
    int current = p.estimate().currentParallelism();
    boolean allUp = true;
    boolean allDown = true;
    boolean anyChange = false;
    int lowest = Integer.MAX_VALUE;
    int highest = Integer.MIN_VALUE;
    for (Map<String, Integer> w : recent) {
      int h = w.get(id);
      allUp &= h > current;
      allDown &= h < current;
      anyChange |= h != current;
      lowest = Math.min(lowest, h);
      highest = Math.max(highest, h);
    }
    if (anyChange && recent.size() < options.activation()) {
      note(
          extra,
          id,
          ReasonCode.ACTIVATING,
          recent.size() + " of " + options.activation() + " windows agree on a change so far");
      return current;
    }
    if (!allDown) {
      pendingScaleDowns.remove(id);
      delayNotes.remove(id);
    }
    if (allUp) {
      return lowest;
    }
    if (allDown) {
      ScaleDown down = pendingScaleDowns.get(id);
      if (down == null || highest > down.highest()) {
        down = new ScaleDown(down == null ? now : down.since(), highest);
        pendingScaleDowns.put(id, down);
      }
      Instant due = down.since().plus(options.scaleDownDelay());
      if (now.isBefore(due)) {
        extra.computeIfAbsent(id, k -> new ArrayList<>()).add(delayNote(id, down, due));
        return current;
      }
      return down.highest();
    }
    if (anyChange) {
      note(
          extra,
          id,
          ReasonCode.DIRECTION_UNSTABLE,
          "the last "
              + recent.size()
              + " windows disagree on the direction: "
              + recent.stream().map(w -> w.get(id)).toList());
    }
    return current;
  }

  // A pending scale-down is noted every window until it is due; its text (two timestamps) is
  // rendered once per change of it, not once per vertex per window.
  private Reason delayNote(String id, ScaleDown down, Instant due) {
    DelayNote last = delayNotes.get(id);
    if (last != null && last.down().equals(down)) {
      return last.reason();
    }
    Reason r =
        new Reason(
            ReasonCode.SCALE_DOWN_DELAYED,
            "lower since "
                + down.since()
                + "; scaling down to the highest recommendation ("
                + down.highest()
                + ") after "
                + due);
    delayNotes.put(id, new DelayNote(down, r));
    return r;
  }

  private record DelayNote(ScaleDown down, Reason reason) {}

  /** The job now runs at the requested parallelism: a new operating point, start afresh. */
  @Override
  public void rescaleApplied() {
    recent.clear();
    pendingScaleDowns.clear();
    delayNotes.clear();
    backoffUntil = Optional.empty();
  }

  /** Flink did not apply the rescale (e.g. too few slots): back off, do not storm. */
  @Override
  public void rescaleNotApplied() {
    recent.clear();
    pendingScaleDowns.clear();
    delayNotes.clear();
    backoffUntil = Optional.of(clock.instant().plus(options.rescaleBackoff()));
  }

  public Optional<Instant> backoffUntil() {
    return backoffUntil;
  }

  private Decision hold(
      Instant now,
      Estimate estimate,
      List<Proposal> proposals,
      Map<String, List<Reason>> extra,
      ReasonCode code,
      String message) {
    Map<String, Integer> current = new LinkedHashMap<>(2 * proposals.size());
    proposals.forEach(p -> current.put(p.estimate().vertexId(), p.estimate().currentParallelism()));
    return new Decision(
        now,
        estimate,
        vertexDecisions(proposals, current, extra),
        new Action.Hold(new Reason(code, message)));
  }

  private static List<VertexDecision> vertexDecisions(
      List<Proposal> proposals, Map<String, Integer> targets, Map<String, List<Reason>> extra) {
    List<VertexDecision> result = new ArrayList<>();
    for (Proposal p : proposals) {
      String id = p.estimate().vertexId();
      List<Reason> more = extra.get(id);
      List<Reason> reasons = p.reasons();
      if (more != null) {
        reasons = new ArrayList<>(reasons);
        reasons.addAll(more);
      }
      result.add(
          new VertexDecision(
              id,
              p.estimate().name(),
              p.estimate().source(),
              p.estimate().currentParallelism(),
              p.recommended(),
              targets.get(id),
              reasons));
    }
    return result;
  }

  private static void note(Map<String, List<Reason>> extra, String id, ReasonCode c, String m) {
    extra.computeIfAbsent(id, k -> new ArrayList<>()).add(new Reason(c, m));
  }

  // The most telling reason a hold has, for the one-line summary.
  private static ReasonCode holdCode(Map<String, List<Reason>> extra) {
    for (ReasonCode c :
        List.of(
            ReasonCode.SCALE_DOWN_DELAYED, ReasonCode.ACTIVATING, ReasonCode.DIRECTION_UNSTABLE)) {
      if (extra.values().stream().flatMap(List::stream).anyMatch(r -> r.code() == c)) {
        return c;
      }
    }
    return ReasonCode.NO_CHANGE;
  }

  private static String holdMessage(Map<String, List<Reason>> extra) {
    return switch (holdCode(extra)) {
      case SCALE_DOWN_DELAYED -> "a scale-down is waiting out scale-down-delay";
      case ACTIVATING -> "a change is waiting for activation windows";
      case DIRECTION_UNSTABLE -> "recent windows disagree on the direction of a change";
      default -> "every vertex runs at its target";
    };
  }

  /** How long ago the policy started tracking a pending scale-down of {@code vertexId}. */
  Optional<Duration> scaleDownPendingFor(String vertexId) {
    return Optional.ofNullable(pendingScaleDowns.get(vertexId))
        .map(d -> Duration.between(d.since(), clock.instant()));
  }
}
