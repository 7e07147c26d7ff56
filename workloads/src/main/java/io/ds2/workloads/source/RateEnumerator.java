package io.ds2.workloads.source;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Gives each reader subtask its own split when it registers. Splits handed back on failure (and
 * splits not yet assigned at a checkpoint) are kept and handed out again.
 */
final class RateEnumerator implements SplitEnumerator<RateSplit, List<RateSplit>> {
  private final SplitEnumeratorContext<RateSplit> context;
  private final long epochMillis;
  private final Map<Integer, RateSplit> unassigned = new HashMap<>();
  private boolean created;

  RateEnumerator(SplitEnumeratorContext<RateSplit> context, List<RateSplit> restored) {
    this.context = context;
    this.epochMillis =
        restored.isEmpty() ? System.currentTimeMillis() : restored.get(0).epochMillis();
    restored.forEach(s -> unassigned.put(s.index(), s));
    this.created = !restored.isEmpty();
  }

  @Override
  public void start() {
    if (!created) {
      int of = context.currentParallelism();
      long now = System.currentTimeMillis();
      for (int i = 0; i < of; i++) {
        unassigned.put(i, new RateSplit(i, of, epochMillis, now, 0));
      }
      created = true;
    }
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {}

  @Override
  public void addSplitsBack(List<RateSplit> splits, int subtaskId) {
    splits.forEach(s -> unassigned.put(s.index(), s));
  }

  @Override
  public void addReader(int subtaskId) {
    RateSplit split = unassigned.remove(subtaskId);
    if (split != null) {
      context.assignSplit(split, subtaskId);
    }
  }

  @Override
  public List<RateSplit> snapshotState(long checkpointId) {
    return new ArrayList<>(unassigned.values());
  }

  @Override
  public void close() {}
}
