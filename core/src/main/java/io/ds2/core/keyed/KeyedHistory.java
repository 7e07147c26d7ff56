package io.ds2.core.keyed;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What the loop remembers about its keyed vertices (spread over key groups) and its sources (spread
 * over splits, {@link SubtaskShares#owners()}) between windows: the latest observation of each at
 * every parallelism it ran at (windows at one parallelism averaged), as long as they still describe
 * the same job. An immutable value: each estimate returns the history it leaves for the next one. A
 * source's remembered observations also keep its split count where only idle subtasks told it.
 *
 * <p>An observation is forgotten when the vertex's cost per record moved by more than {@value
 * #COST_CHANGE} since (another job, or another machine), when the vertex's max parallelism (or
 * split count) changed, and, oldest first, when the observations no longer fit one spread: the
 * keys' popularity moved.
 */
public final class KeyedHistory {
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

  private static final KeyedHistory EMPTY = new KeyedHistory(Map.of());

  // A class, not a record: each estimate leaves a new history, and a record's copying constructor
  // copied every keyed vertex's entry a second time.
  private final Map<String, List<SubtaskShares>> byVertex;

  public KeyedHistory(Map<String, List<SubtaskShares>> byVertex) {
    this(copyOf(byVertex), true);
  }

  // Takes ownership of a map whose lists are immutable.
  private KeyedHistory(
      HashMap<String, List<SubtaskShares>> owned,
      boolean owns) { // the flag only tells the constructors apart
    this.byVertex = Collections.unmodifiableMap(owned);
  }

  private static HashMap<String, List<SubtaskShares>> copyOf(
      Map<String, List<SubtaskShares>> byVertex) {
    HashMap<String, List<SubtaskShares>> copy = new HashMap<>(2 * byVertex.size());
    byVertex.forEach((id, list) -> copy.put(id, List.copyOf(list))); // no copy if already one
    return copy;
  }

  public static KeyedHistory empty() {
    return EMPTY;
  }

  /** The observations of each vertex remembered, newest first. */
  public Map<String, List<SubtaskShares>> byVertex() {
    return byVertex;
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
    HashMap<String, List<SubtaskShares>> next =
        new HashMap<>(2 * (byVertex.size() + replaced.size()));
    next.putAll(byVertex); // immutable lists already
    replaced.forEach((id, list) -> next.put(id, List.copyOf(list)));
    return new KeyedHistory(next, true);
  }

  /**
   * What the vertex's observations become with {@code latest} as the newest: older ones at other
   * parallelisms that still apply, as long as all fit one spread.
   */
  public List<SubtaskShares> observationsWith(String vertexId, SubtaskShares latest) {
    List<SubtaskShares> older = of(vertexId);
    if (older.isEmpty()) { // the vertex's first window: nothing to merge or check
      return List.of(latest);
    }
    List<SubtaskShares> kept = new ArrayList<>(MAX_OBSERVATIONS);
    kept.add(latest);
    for (SubtaskShares o : older) {
      boolean applies =
          o.maxParallelism() == latest.maxParallelism()
              && o.owners().isPresent() == latest.owners().isPresent()
              && Math.abs(o.costPerRecord() - latest.costPerRecord())
                  <= COST_CHANGE * latest.costPerRecord();
      if (!applies) {
        continue;
      }
      if (o.parallelism() == latest.parallelism()) {
        if (o.distance(latest) <= FIT_TOLERANCE) {
          kept.set(0, o.averagedWith(latest, SAME_PARALLELISM_MEMORY));
        }
      } else if (kept.size() < MAX_OBSERVATIONS) {
        kept.add(o);
      }
    }
    while (kept.size() > 1 && !fits(kept)) {
      kept.remove(kept.size() - 1);
    }
    return kept.size() == 1 ? List.of(kept.get(0)) : List.copyOf(kept);
  }

  /** This history without the vertices {@code inJob} rejects (the job's graph changed). */
  public KeyedHistory retainOnly(Predicate<String> inJob) {
    boolean all = true;
    for (String id : byVertex.keySet()) { // a loop, not a stream: every estimate asks
      all &= inJob.test(id);
    }
    if (all) {
      return this;
    }
    HashMap<String, List<SubtaskShares>> next = new HashMap<>(byVertex);
    next.keySet().removeIf(inJob.negate());
    return new KeyedHistory(next, true);
  }

  private static boolean fits(List<SubtaskShares> observations) {
    int units = observations.get(0).maxParallelism();
    if (observations.get(0).owners().isPresent()) { // a source's splits
      SplitLoad combined = SplitLoad.combine(units, observations);
      return observations.stream().allMatch(o -> combined.misfit(o) <= FIT_TOLERANCE);
    }
    KeyGroupLoad combined = KeyGroupLoad.combine(units, observations);
    return observations.stream().allMatch(o -> combined.misfit(o) <= FIT_TOLERANCE);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyedHistory h && byVertex.equals(h.byVertex);
  }

  @Override
  public int hashCode() {
    return byVertex.hashCode();
  }

  @Override
  public String toString() {
    return "KeyedHistory[byVertex=" + byVertex + "]";
  }
}
