package io.ds2.model.keyed;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What the loop remembers about its keyed vertices between windows: the latest observation of each
 * at every parallelism it ran at (windows at one parallelism averaged), as long as they still
 * describe the same job. An immutable value: each estimate returns the history it leaves for the
 * next one.
 *
 * <p>An observation is forgotten when the vertex's cost per record moved by more than {@value
 * #COST_CHANGE} since (another job, or another machine), when the vertex's max parallelism changed,
 * and, oldest first, when the observations no longer fit one spread: the keys' popularity moved.
 */
public record KeyedHistory(Map<String, List<SubtaskShares>> byVertex) {
  /** Observations kept per vertex: parallelisms the vertex ran at lately. */
  static final int MAX_OBSERVATIONS = 4;

  /** Relative change of the cost per record beyond which older observations no longer apply. */
  static final double COST_CHANGE = 0.25;

  /**
   * How far (relative to an even share) a subtask's observed share may be from the combined spread
   * before the observations count as contradicting each other.
   */
  static final double FIT_TOLERANCE = 0.1;

  /**
   * Windows at one parallelism are averaged, the older ones weighing at most this many times the
   * newest: short windows' noise averages out, and a change still shows within a few windows.
   */
  static final double SAME_PARALLELISM_MEMORY = 4;

  public KeyedHistory {
    Map<String, List<SubtaskShares>> copy = new HashMap<>();
    byVertex.forEach((id, list) -> copy.put(id, List.copyOf(list))); // no copy if already one
    byVertex = Collections.unmodifiableMap(copy);
  }

  public static KeyedHistory empty() {
    return new KeyedHistory(Map.of());
  }

  /** The observations of a vertex, newest first. */
  public List<SubtaskShares> of(String vertexId) {
    return byVertex.getOrDefault(vertexId, List.of());
  }

  /** The spread of a vertex's input over its key groups, from what is remembered of it. */
  public KeyGroupLoad load(String vertexId, int maxParallelism) {
    List<SubtaskShares> known = of(vertexId);
    return known.isEmpty()
        ? KeyGroupLoad.even(maxParallelism)
        : KeyGroupLoad.combine(maxParallelism, known);
  }

  /** This history with {@code latest} added as the vertex's newest observation. */
  public KeyedHistory with(String vertexId, SubtaskShares latest) {
    return with(Map.of(vertexId, observationsWith(vertexId, latest)));
  }

  /** This history with the observations of some vertices replaced (one copy for a whole walk). */
  public KeyedHistory with(Map<String, List<SubtaskShares>> replaced) {
    if (replaced.isEmpty()) {
      return this;
    }
    Map<String, List<SubtaskShares>> next = new HashMap<>(byVertex);
    next.putAll(replaced);
    return new KeyedHistory(next);
  }

  /**
   * What the vertex's observations become with {@code latest} as the newest: older ones at other
   * parallelisms that still apply, as long as all fit one spread.
   */
  public List<SubtaskShares> observationsWith(String vertexId, SubtaskShares latest) {
    List<SubtaskShares> kept = new ArrayList<>();
    kept.add(latest);
    for (SubtaskShares older : of(vertexId)) {
      boolean applies =
          older.maxParallelism() == latest.maxParallelism()
              && Math.abs(older.costPerRecord() - latest.costPerRecord())
                  <= COST_CHANGE * latest.costPerRecord();
      if (!applies) {
        continue;
      }
      if (older.parallelism() == latest.parallelism()) {
        if (older.distance(latest) <= FIT_TOLERANCE) {
          kept.set(0, older.averagedWith(latest, SAME_PARALLELISM_MEMORY));
        }
      } else if (kept.size() < MAX_OBSERVATIONS) {
        kept.add(older);
      }
    }
    while (kept.size() > 1 && !fits(kept)) {
      kept.remove(kept.size() - 1);
    }
    return List.copyOf(kept);
  }

  /** This history without the vertices {@code inJob} rejects (the job's graph changed). */
  public KeyedHistory retainOnly(Predicate<String> inJob) {
    if (byVertex.keySet().stream().allMatch(inJob)) {
      return this;
    }
    Map<String, List<SubtaskShares>> next = new HashMap<>(byVertex);
    next.keySet().removeIf(inJob.negate());
    return new KeyedHistory(next);
  }

  private static boolean fits(List<SubtaskShares> observations) {
    KeyGroupLoad combined =
        KeyGroupLoad.combine(observations.get(0).maxParallelism(), observations);
    return observations.stream().allMatch(o -> combined.misfit(o) <= FIT_TOLERANCE);
  }
}
