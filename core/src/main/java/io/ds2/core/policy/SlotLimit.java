package io.ds2.core.policy;

import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.graph.JobGraph;
import java.util.List;

/**
 * Caps the targets at the slots the job can get: asked for more, the adaptive scheduler waits for
 * slots that never come and the Flink operator deploys what cannot start. The job needs, per
 * slot-sharing group, as many slots as the group's largest vertex; the cap is one parallelism for
 * every vertex, the highest at which the groups together fit (with one group: the slots), so that a
 * small group keeps what it wants and the large ones share the rest. A vertex already above the cap
 * (slots taken by other jobs meanwhile) is not raised, nor lowered for it.
 */
final class SlotLimit {
  private SlotLimit() {}

  static void apply(
      JobGraph graph,
      List<VertexTargets.Proposal> proposals,
      int[] targets,
      Reason[] extra,
      SlotCapacity c) {
    if (c.slots().isEmpty()) {
      return;
    }
    int slots = c.slots().getAsInt();
    int[] kept = new int[targets.length];
    int highest = 1;
    for (int i = 0; i < targets.length; i++) {
      kept[i] = Math.min(proposals.get(i).estimate().currentParallelism(), targets[i]);
      highest = Math.max(highest, targets[i]);
    }
    SlotGroups groups = SlotGroups.of(graph, proposals);
    // What the job holds at the kept parallelism is no more than it holds now: never less room.
    int room = Math.max(slots, groups.held(kept));
    if (groups.held(capped(targets, kept, highest)) <= room) {
      return;
    }
    int lo = 1; // the cap cannot go below one, even where the groups outnumber the slots
    int hi = highest - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (groups.held(capped(targets, kept, mid)) <= room) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    int[] capped = capped(targets, kept, lo);
    String shared =
        groups.count() == 1
            ? ""
            : ", shared by its "
                + groups.count()
                + " slot-sharing groups: each vertex at most "
                + lo;
    for (int i = 0; i < targets.length; i++) {
      if (capped[i] < targets[i]) {
        extra[i] =
            new Reason(
                ReasonCode.SLOT_LIMIT,
                "wants "
                    + targets[i]
                    + "; the job can get "
                    + slots
                    + " slots ("
                    + c.source()
                    + ")"
                    + shared);
        targets[i] = capped[i];
      }
    }
  }

  /** {@code targets}, each at most {@code cap} unless it keeps more ({@code kept}). */
  private static int[] capped(int[] targets, int[] kept, int cap) {
    int[] t = new int[targets.length];
    for (int i = 0; i < t.length; i++) {
      t[i] = Math.min(targets[i], Math.max(cap, kept[i]));
    }
    return t;
  }
}
