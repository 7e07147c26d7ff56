package io.ds2.core.split;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The splits each subtask of a source vertex names in its reader's per-split metrics (KafkaSource
 * registers {@code KafkaSourceReader.topic.<t>.partition.<n>.*} for every partition it owns), which
 * may include names a subtask index had before a rescale ({@link #resolve} tells which it reads). A
 * subtask with no split reads nothing, whatever the load.
 *
 * @param bySubtask per subtask (index = subtask), the splits named, in order
 */
public record SplitOwnership(List<List<Split>> bySubtask) {
  public SplitOwnership {
    List<List<Split>> copy = new ArrayList<>(bySubtask.size());
    bySubtask.forEach(s -> copy.add(List.copyOf(new TreeSet<>(s))));
    bySubtask = List.copyOf(copy);
  }

  public int parallelism() {
    return bySubtask.size();
  }

  /** Every split read by some subtask, in order. */
  public List<Split> splits() {
    TreeSet<Split> all = new TreeSet<>();
    bySubtask.forEach(all::addAll);
    return List.copyOf(all);
  }

  /**
   * Whether the listing covers every split: each topic's partitions numbered 0..n-1 without gaps. A
   * reader registers a split's metrics only when its fetcher takes the split, so a listing made
   * right after a start may lack some. It may also name a split under more than one subtask:
   * Flink's metric store keeps the names a subtask index had in an earlier run (before a rescale),
   * so an index can show splits it no longer reads ({@link #resolve}).
   */
  public boolean complete() {
    List<Split> all = splits();
    if (all.isEmpty()) {
      return false;
    }
    String topic = null;
    int next = 0;
    for (Split s : all) {
      if (!s.topic().equals(topic)) {
        topic = s.topic();
        next = 0;
      }
      if (s.partition() != next++) {
        return false;
      }
    }
    return true;
  }

  /**
   * Which subtask really reads each of {@link #splits()}, where the listing tells: every split is
   * read by exactly one subtask, and every subtask that read records reads at least one. A split
   * named under one subtask only is that subtask's; a reading subtask left with one split has it;
   * each settled split is struck from the other subtasks' names (stale ones, from an earlier run),
   * until nothing changes.
   *
   * @param reading per subtask, whether it read records (over the window)
   * @return the owner of each split, or empty where the names leave a split's owner open
   */
  public Optional<int[]> resolve(boolean[] reading) {
    List<Split> all = splits();
    int p = bySubtask.size();
    List<Set<Split>> left = new ArrayList<>();
    bySubtask.forEach(l -> left.add(new HashSet<>(l)));
    Map<Split, Integer> owner = new HashMap<>();
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Split s : all) {
        if (owner.containsKey(s)) {
          continue;
        }
        int named = -1;
        int count = 0;
        for (int i = 0; i < p; i++) {
          if (left.get(i).contains(s)) {
            named = i;
            count++;
          }
        }
        if (count == 1) {
          owner.put(s, named);
          changed = true;
        }
      }
      for (int i = 0; i < p; i++) {
        if (i < reading.length && reading[i] && left.get(i).size() == 1) {
          Split s = left.get(i).iterator().next();
          if (!owner.containsKey(s)) {
            owner.put(s, i);
            changed = true;
          }
        }
      }
      for (Map.Entry<Split, Integer> e : owner.entrySet()) {
        for (int i = 0; i < p; i++) {
          if (i != e.getValue() && left.get(i).remove(e.getKey())) {
            changed = true;
          }
        }
      }
    }
    if (owner.size() != all.size()) {
      return Optional.empty();
    }
    int[] owners = new int[all.size()];
    for (int s = 0; s < owners.length; s++) {
      owners[s] = owner.get(all.get(s));
    }
    return Optional.of(owners);
  }
}
