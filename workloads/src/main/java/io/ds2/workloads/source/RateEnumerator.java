package io.ds2.workloads.source;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Deals the splits out in turn as the readers register: split i to subtask i mod p. Splits handed
 * back on failure (and splits not yet assigned at a checkpoint) are kept and handed out again; on a
 * restore from a checkpoint the readers get their splits back from their own state.
 */
final class RateEnumerator implements SplitEnumerator<RateSplit, List<RateSplit>> {
  private final SplitEnumeratorContext<RateSplit> context;
  private final int splits;
  private final long epochMillis;
  private final Map<Integer, RateSplit> unassigned = new TreeMap<>();
  private boolean created;

  RateEnumerator(SplitEnumeratorContext<RateSplit> context, int splits, List<RateSplit> restored) {
    this.context = context;
    this.splits = splits;
    this.epochMillis =
        restored.isEmpty() ? System.currentTimeMillis() : restored.get(0).epochMillis();
    restored.forEach(s -> unassigned.put(s.index(), s));
    this.created = !restored.isEmpty();
  }

  @Override
  public void start() {
    if (!created) {
      long now = System.currentTimeMillis();
      for (int i = 0; i < splits; i++) {
        unassigned.put(i, new RateSplit(i, splits, epochMillis, now, 0));
      }
      created = true;
    }
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {}

  @Override
  public void addSplitsBack(List<RateSplit> back, int subtaskId) {
    back.forEach(s -> unassigned.put(s.index(), s));
  }

  @Override
  public void addReader(int subtaskId) {
    int p = context.currentParallelism();
    List<RateSplit> mine = new ArrayList<>();
    unassigned
        .values()
        .removeIf(
            s -> {
              boolean take = s.index() % p == subtaskId;
              if (take) {
                mine.add(s);
              }
              return take;
            });
    mine.forEach(s -> context.assignSplit(s, subtaskId));
  }

  @Override
  public List<RateSplit> snapshotState(long checkpointId) {
    return new ArrayList<>(unassigned.values());
  }

  @Override
  public void close() {}
}
