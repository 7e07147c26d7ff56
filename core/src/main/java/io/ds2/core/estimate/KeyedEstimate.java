package io.ds2.core.estimate;

import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.KeyGroupLoad;
import io.ds2.core.keyed.KeyedSizing;
import io.ds2.core.keyed.KeyedSizing.HotKeyGroup;
import io.ds2.core.keyed.SubtaskShares;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.SubtaskSample.Counter;
import io.ds2.core.window.VertexObservation;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntToDoubleFunction;

/**
 * Sizes a vertex whose input is spread by key group so that its busiest subtask keeps up, not just
 * the average one (DS2's equation assumes an even spread), and says why in its reasons.
 */
public final class KeyedEstimate {
  /**
   * Back-pressured ratio of the writer upstream from which its output counts as throttled by the
   * vertex (the buffers are full, so every channel carries its share of the throttled rate).
   */
  static final double THROTTLED_BACK_PRESSURE = 0.05;

  private KeyedEstimate() {}

  /**
   * The shares of the input the subtasks needed over the window; empty when the per-subtask
   * counters are incomplete or nothing was read.
   *
   * @param demand records/s the vertex had to take in during the window
   */
  static Optional<SubtaskShares> observe(
      VertexObservation obs, int maxParallelism, double demand, boolean throttled) {
    List<SubtaskSample> subtasks = obs.subtaskDeltas();
    int p = obs.parallelism();
    if (subtasks.size() != p || p > maxParallelism || obs.recordsIn() <= 0) {
      return Optional.empty();
    }
    double[] rates = new double[p];
    double[] busy = new double[p];
    boolean[] seen = new boolean[p];
    for (SubtaskSample s : subtasks) {
      int i = s.subtask();
      if (i < 0 || i >= p || seen[i] || !s.has(Counter.RECORDS_IN)) {
        return Optional.empty();
      }
      seen[i] = true;
      rates[i] = s.value(Counter.RECORDS_IN) / obs.seconds();
      busy[i] = s.busyRatio();
    }
    double busyMs = obs.busyTimeMs().orElse(0);
    double cost = busyMs / 1000 / obs.recordsIn();
    return SubtaskShares.observe(
        maxParallelism, rates, busy, demand, throttled, cost, obs.recordsIn());
  }

  /**
   * @param capacityAt records/s one instance may take at the target utilization, by parallelism
   * @param ds2 DS2's parallelism for the vertex (after min/max bounds)
   */
  public static KeySpread size(
      Vertex v,
      KeyGroupLoad load,
      double input,
      IntToDoubleFunction capacityAt,
      int ds2,
      Ds2Options options) {
    int upper = Math.min(options.maxParallelism().orElse(Integer.MAX_VALUE), v.maxParallelism());
    KeyedSizing.Result chosen = KeyedSizing.size(load, input, capacityAt, ds2, upper);
    KeyedSizing.Result atDs2 =
        chosen.parallelism() == ds2 ? chosen : KeyedSizing.size(load, input, capacityAt, ds2, ds2);
    return new KeySpread(
        load,
        ds2,
        chosen.parallelism(),
        chosen.feasible(),
        chosen.busiestSubtask(),
        input > 0 ? chosen.busiestLoad() / input : 0,
        chosen.busiestFirstKeyGroup(),
        chosen.busiestLastKeyGroup(),
        new KeySpread.Busiest(
            atDs2.busiestSubtask(),
            atDs2.busiestFirstKeyGroup(),
            atDs2.busiestLastKeyGroup(),
            atDs2.busiestLoad() / capacityAt.applyAsDouble(ds2)),
        chosen.hot());
  }

  /** Reasons saying what the spread changed; the vertex runs at {@code s.parallelism()}. */
  public static void explain(
      Vertex v,
      KeySpread s,
      double input,
      IntToDoubleFunction capacityAt,
      Ds2Options options,
      List<Reason> reasons) {
    if (s.load().assumedEven()) {
      reasons.add(
          new Reason(
              ReasonCode.KEY_SPREAD_UNKNOWN,
              "observed only at parallelism 1: how its input spreads over its "
                  + s.maxParallelism()
                  + " key groups is not known yet, so even keys are assumed; the next rescale"
                  + " shows the spread"));
    }
    if (s.parallelism() > s.ds2Parallelism()) {
      KeySpread.Busiest d = s.atDs2();
      reasons.add(
          new Reason(
              ReasonCode.UNEVEN_INPUT,
              String.format(
                  Locale.ROOT,
                  "%s: at DS2's %d, subtask %d (key groups %d-%d) would need %.2f instances; at %d"
                      + " the busiest, subtask %d (key groups %d-%d), gets %.1f %% of the input"
                      + " (even share %.1f %%)",
                  basis(s),
                  s.ds2Parallelism(),
                  d.subtask(),
                  d.firstKeyGroup(),
                  d.lastKeyGroup(),
                  d.instances(),
                  s.parallelism(),
                  s.busiestSubtask(),
                  s.firstKeyGroup(),
                  s.lastKeyGroup(),
                  100 * s.busiestShare(),
                  100.0 / s.parallelism())));
    }
    boolean limitedAlready = false;
    for (Reason r : reasons) { // a loop, not a stream: every keyed vertex, every window
      limitedAlready |=
          r.code() == ReasonCode.LIMITED_BY_VERTEX_MAX_PARALLELISM
              || r.code() == ReasonCode.LIMITED_BY_MAX_PARALLELISM_OPTION;
    }
    if (!s.feasible() && !limitedAlready) {
      int optionMax = options.maxParallelism().orElse(Integer.MAX_VALUE);
      String limit =
          v.maxParallelism() <= optionMax
              ? "the vertex's max parallelism " + v.maxParallelism()
              : "max-parallelism " + optionMax;
      reasons.add(
          new Reason(
              v.maxParallelism() <= optionMax
                  ? ReasonCode.LIMITED_BY_VERTEX_MAX_PARALLELISM
                  : ReasonCode.LIMITED_BY_MAX_PARALLELISM_OPTION,
              "the busiest subtask keeps up at no parallelism up to "
                  + limit
                  + ": demand not sustainable"));
    }
    if (!s.hot().isEmpty()) {
      HotKeyGroup h = s.hot().get(0);
      double instances = h.load() / capacityAt.applyAsDouble(s.parallelism());
      reasons.add(
          new Reason(
              ReasonCode.HOT_KEY_GROUP,
              String.format(
                  Locale.ROOT,
                  "%s: key group %d alone needs %.2f instances (%.1f records/s)%s, which no"
                      + " parallelism fixes; sized for the other key groups; salting the hot key or"
                      + " aggregating in two phases (pre-aggregate, then combine) would spread it",
                  basis(s),
                  h.keyGroup(),
                  instances,
                  h.load(),
                  s.hot().size() > 1 ? " (" + (s.hot().size() - 1) + " more like it)" : "")));
    }
  }

  private static String basis(KeySpread s) {
    if (s.load().assumedEven()) {
      return "key groups assumed even, but " + s.maxParallelism() + " of them split unevenly";
    }
    return "the input spreads unevenly over key groups (measured at p="
        + s.load().observedAt().stream()
            .distinct()
            .map(String::valueOf)
            .reduce((a, b) -> a + "," + b)
            .orElse("?")
        + ")";
  }
}
