package io.ds2.model.split;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Which splits each subtask of a source vertex reads, as its reader's per-split metrics show
 * (KafkaSource registers {@code KafkaSourceReader.topic.<t>.partition.<n>.*} for every partition it
 * owns). A subtask with no split reads nothing, whatever the load.
 *
 * @param bySubtask per subtask (index = subtask), its splits in order
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

  /** The subtask reading each of {@link #splits()} (-1 for none), in that order. */
  public int[] owners() {
    List<Split> all = splits();
    int[] owners = new int[all.size()];
    java.util.Arrays.fill(owners, -1);
    for (int i = 0; i < bySubtask.size(); i++) {
      for (Split s : bySubtask.get(i)) {
        owners[java.util.Collections.binarySearch(all, s)] = i;
      }
    }
    return owners;
  }

  /**
   * Whether the listing looks whole: every split read by exactly one subtask, each topic's
   * partitions numbered 0..n-1 without gaps. A reader registers a split's metrics only when its
   * fetcher takes the split, so a listing made right after a start may lack some.
   */
  public boolean complete() {
    int listed = 0;
    for (List<Split> s : bySubtask) {
      listed += s.size();
    }
    List<Split> all = splits();
    if (all.isEmpty() || listed != all.size()) {
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
}
