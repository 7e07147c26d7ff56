package io.ds2.core.policy;

import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.VertexTargets.Proposal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The loop's memory: turns each clean window's estimate into a decision. A change is made only when
 * it has persisted in the same direction for {@code activation} windows (then the smallest of those
 * changes); a scale-down only after recommendations stayed lower for the whole {@code
 * scale-down-delay} (to the highest of them, or where a forecast acts, of the last activation
 * windows'); nothing while backing off from an unmet rescale, and nothing on an incomplete
 * estimate. Time is an argument.
 */
public final class ScalingPolicy implements DecisionPolicy {
  private final Ds2Options options;
  private final EfficiencyModel efficiency = new EfficiencyModel();
  // One entry per vertex holding all the policy remembers of it: at 1,000 vertices, a map per
  // concern (recent windows, scale-downs, notes) cost five lookups per vertex and window.
  private final ByVertex<VertexMemory> memory = new ByVertex<>();

  /**
   * The longest back-off, in rescale-backoffs: a job that never gets its rescale is retried rarely.
   */
  static final int MAX_BACKOFF_FACTOR = 8;

  private Optional<Instant> backoffUntil = Optional.empty();
  // Rescales not applied in a row: each doubles the back-off, up to MAX_BACKOFF_FACTOR.
  private int notApplied;
  private boolean heldForShift;
  // Likewise once for a window taken while a source drains (Draining).
  private boolean heldForDrain;
  // The vertices the last rescale asked to change (null: not known, e.g. after a restore).
  private Set<String> lastRescaled;
  // The options estimates are made with: the configured ones until a capacity shortfall taught
  // the policy that the job cannot be run as hot (then a lower target utilization, kept).
  private Ds2Options estimateOptions;
  // Which of the last windows at this parallelism showed a capacity shortfall (bit 0: the last).
  private int shortfallWindows;

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
    Map<String, ScaleDown> downs = new HashMap<>();
    memory
        .asMap()
        .forEach(
            (id, m) -> {
              if (m.down != null) {
                downs.put(id, m.down);
              }
            });
    return new State(downs, backoffUntil);
  }

  /** Continues from a saved state (e.g. after a controller restart). */
  public void restore(State saved) {
    forgetScaleDowns();
    saved
        .scaleDowns()
        .forEach(
            (id, down) -> {
              VertexMemory m = memory.get(id);
              if (m == null) {
                m = new VertexMemory(options.activation());
                memory.put(id, m);
              }
              m.down = down;
            });
    backoffUntil = saved.backoffUntil();
    notApplied = backoffUntil.isPresent() ? Math.max(notApplied, 1) : notApplied;
  }

  private VertexMemory memoryOf(int position, String id) {
    return memory.at(position, id, () -> new VertexMemory(options.activation()));
  }

  private void forgetRecent() {
    memory.asMap().values().forEach(m -> m.filled = 0);
  }

  private void forgetScaleDowns() {
    memory
        .asMap()
        .values()
        .forEach(
            m -> {
              m.down = null;
              m.note = null;
            });
  }

  public ScalingPolicy(Ds2Options options) {
    this.options = options;
    this.estimateOptions = options;
  }

  /**
   * The configured options, with a lower target utilization once the job fell behind although every
   * vertex was sized and none saturated ({@link CapacityShortfall}).
   */
  @Override
  public Ds2Options estimateOptions() {
    return estimateOptions;
  }

  @Override
  public Ds2Options options() {
    return options;
  }

  @Override
  public Decision decide(
      JobGraph graph,
      Estimate estimate,
      SlotCapacity capacity,
      Optional<Duration> forecastLead,
      Instant now) {
    for (int i = 0; i < estimate.vertices().size(); i++) {
      efficiency.observe(i, estimate.vertices().get(i));
    }
    List<Proposal> proposals = VertexTargets.propose(graph, estimate, efficiency, options);
    if (!estimate.complete()) {
      forgetRecent();
      return hold(
          now,
          estimate,
          proposals,
          new Reason[proposals.size()],
          ReasonCode.ESTIMATE_INCOMPLETE,
          "some vertices could not be estimated; nothing is changed on partial information");
    }
    Optional<String> shift = HoldReasons.shiftOf(graph, estimate);
    // A window across a load change sizes for neither load: wait for the next one, but only once,
    // so that a steady ramp is still followed.
    if (shift.isPresent() && !heldForShift) {
      heldForShift = true;
      return hold(
          now,
          estimate,
          proposals,
          new Reason[proposals.size()],
          ReasonCode.DEMAND_SHIFTED,
          shift.get() + " during the window; deciding on the next window");
    }
    heldForShift = false;
    Optional<String> drain = Draining.of(graph, estimate, proposals);
    if (drain.isPresent() && !heldForDrain) {
      heldForDrain = true;
      return hold(
          now, estimate, proposals, new Reason[proposals.size()], ReasonCode.DRAINING, drain.get());
    }
    heldForDrain = false;
    // The policy's own reason for each vertex (activation, delay, direction), at most one.
    Reason[] extra = new Reason[proposals.size()];
    int[] targets = new int[proposals.size()];
    for (int i = 0; i < targets.length; i++) {
      Proposal p = proposals.get(i);
      VertexMemory m = memoryOf(i, p.estimate().vertexId());
      m.add(p.proposed());
      targets[i] = m.target(p, now, options, forecastLead, extra, i);
      Optional<Reason> held =
          VertexTargets.withinHeadroom(
              p.estimate(), targets[i], estimate.targetUtilization(), options);
      if (held.isPresent()) {
        targets[i] = p.estimate().currentParallelism();
        extra[i] = held.get();
      }
    }
    boolean changes = VertexTargets.changed(proposals, targets);
    SlotCapacity slots = capacity.min(configured());
    if (changes) {
      // Capped first: a change the slots take back is no rescale for a due scale-down to join.
      SlotLimit.apply(graph, proposals, targets, extra, slots);
      changes = VertexTargets.changed(proposals, targets);
    }
    if (changes) {
      joinDueScaleDowns(proposals, targets, extra, forecastLead.isPresent(), now);
      // Joins a rescale, never starts one: alone, a consumer at its capacity flips between windows.
      PointwiseInputs.raise(graph, estimate, targets, extra, options);
      SlotLimit.apply(graph, proposals, targets, extra, slots);
      // Raising may take a scale-down back (then nothing changes), or leave only scale-downs.
      changes =
          VertexTargets.changed(proposals, targets)
              && !SlotSaving.keptForNoSlot(graph, proposals, targets, extra);
    }
    if (backoffUntil.isPresent() && now.isBefore(backoffUntil.get())) {
      return hold(
          now,
          estimate,
          proposals,
          extra,
          ReasonCode.BACKING_OFF,
          "a recent rescale was not applied by Flink; trying again after " + backoffUntil.get());
    }
    if (!changes && options.capacityShortfall()) {
      Optional<CapacityShortfall> shortfall = CapacityShortfall.of(graph, estimate);
      shortfallWindows =
          (shortfallWindows << 1 | (shortfall.isPresent() ? 1 : 0))
              & ((1 << CapacityShortfall.OF_WINDOWS) - 1);
      if (shortfall.isPresent()) {
        CapacityShortfall f = shortfall.get();
        int seen = Integer.bitCount(shortfallWindows);
        if (seen >= CapacityShortfall.CONFIRM_WINDOWS) {
          shortfallWindows = 0;
          estimateOptions =
              options.with(Map.of(Ds2Options.TARGET_UTILIZATION, String.valueOf(f.utilization())));
        }
        return hold(
            now,
            estimate,
            proposals,
            extra,
            ReasonCode.CAPACITY_SHORTFALL,
            f.describe(estimate.targetUtilization(), seen));
      }
    }
    if (changes) {
      shortfallWindows = 0;
      Map<String, Integer> parallelism = Action.Rescale.fresh(targets.length);
      Set<String> rescaled = new java.util.HashSet<>();
      for (int i = 0; i < targets.length; i++) {
        String id = proposals.get(i).estimate().vertexId();
        parallelism.put(id, targets[i]);
        if (targets[i] != proposals.get(i).estimate().currentParallelism()) {
          rescaled.add(id);
        }
      }
      lastRescaled = rescaled;
      return new Decision(
          now,
          estimate,
          vertexDecisions(proposals, targets, extra),
          new Action.Rescale(parallelism));
    }
    return hold(
        now, estimate, proposals, extra, HoldReasons.code(extra), HoldReasons.message(extra));
  }

  private SlotCapacity configured() {
    return options.maxSlots().isPresent()
        ? SlotCapacity.of(options.maxSlots().getAsInt(), "max-slots")
        : SlotCapacity.unknown();
  }

  /**
   * A scale-down that would fall due before its vertex could act again on its own joins the rescale
   * made now: the restart starts every vertex's windows afresh, so the earliest it could act alone
   * is a warm-up and {@code activation} windows later (more, by the restart's own time); waiting
   * would restart it again right then (on the diurnal benchmark, a source lowered alone 105 s after
   * the Join's evening scale-down, its delay having ended 82 s after it). The step is taken at most
   * that horizon early; its depth is measured as any.
   */
  private void joinDueScaleDowns(
      List<Proposal> proposals, int[] targets, Reason[] extra, boolean forecast, Instant now) {
    Instant nextChance =
        now.plus(options.warmUp()).plus(options.window().multipliedBy(options.activation()));
    for (int i = 0; i < targets.length; i++) {
      Proposal p = proposals.get(i);
      int current = p.estimate().currentParallelism();
      VertexMemory m = memory.find(i, p.estimate().vertexId());
      int due =
          targets[i] != current || m == null
              ? -1
              : m.scaleDownDueBefore(current, nextChance, options.scaleDownDelay(), forecast);
      if (due > 0) {
        targets[i] = due;
        extra[i] =
            new Reason(
                ReasonCode.SCALE_DOWN_JOINED,
                "lower since "
                    + m.down.since()
                    + "; the delay ends before it could act again on its own after this"
                    + " restart (a warm-up and "
                    + options.activation()
                    + (options.activation() == 1 ? " window" : " windows")
                    + "), so it joins this rescale at "
                    + due
                    + " (one restart instead of two)");
      }
    }
  }

  /**
   * The job now runs at the requested parallelism: a new operating point, start afresh — except
   * that a vertex the rescale did not change keeps its pending scale-down's start.
   */
  @Override
  public void rescaleApplied() {
    if (lastRescaled == null) {
      memory.clear();
    } else {
      memory
          .asMap()
          .forEach(
              (id, m) -> {
                m.otherVertexRescaled();
                if (lastRescaled.contains(id)) {
                  m.down = null;
                  m.note = null;
                }
              });
      lastRescaled = null;
    }
    shortfallWindows = 0;
    backoffUntil = Optional.empty();
    notApplied = 0;
  }

  /**
   * Flink did not apply the rescale (e.g. too few slots): back off, do not storm; each failure in a
   * row doubles the wait, up to {@link #MAX_BACKOFF_FACTOR} rescale-backoffs.
   */
  @Override
  public void rescaleNotApplied(Instant now) {
    memory.clear();
    lastRescaled = null;
    notApplied++;
    long factor = Math.min(1L << Math.min(notApplied - 1, 30), MAX_BACKOFF_FACTOR);
    backoffUntil = Optional.of(now.plus(options.rescaleBackoff().multipliedBy(factor)));
  }

  public Optional<Instant> backoffUntil() {
    return backoffUntil;
  }

  private Decision hold(
      Instant now,
      Estimate estimate,
      List<Proposal> proposals,
      Reason[] extra,
      ReasonCode code,
      String message) {
    Reason held = new Reason(code, message);
    int[] current = new int[proposals.size()];
    for (int i = 0; i < current.length; i++) {
      current[i] = proposals.get(i).estimate().currentParallelism();
      // A vertex kept from a change it was proposed says why, not only the decision.
      if (extra[i] == null && proposals.get(i).proposed() != current[i]) {
        extra[i] = held;
      }
    }
    return new Decision(
        now, estimate, vertexDecisions(proposals, current, extra), new Action.Hold(held));
  }

  private static List<VertexDecision> vertexDecisions(
      List<Proposal> proposals, int[] targets, Reason[] extra) {
    VertexDecision[] result = new VertexDecision[proposals.size()];
    for (int i = 0; i < result.length; i++) {
      Proposal p = proposals.get(i);
      String id = p.estimate().vertexId();
      List<Reason> reasons = p.reasons();
      if (extra[i] != null) {
        Reason[] all = reasons.toArray(new Reason[reasons.size() + 1]);
        all[reasons.size()] = extra[i];
        reasons = List.of(all);
      }
      result[i] =
          new VertexDecision(
              id,
              p.estimate().name(),
              p.estimate().source(),
              p.estimate().currentParallelism(),
              p.recommended(),
              targets[i],
              reasons);
    }
    return List.of(result);
  }

  /** How long ago the policy started tracking a pending scale-down of {@code vertexId}. */
  Optional<Duration> scaleDownPendingFor(String vertexId, Instant now) {
    return Optional.ofNullable(memory.get(vertexId))
        .map(m -> m.down)
        .map(d -> Duration.between(d.since(), now));
  }
}
