package io.ds2.core.policy;

import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.policy.VertexTargets.Proposal;
import java.util.List;

/**
 * A rescale that only lowers vertices and frees no task slot is not worth a restart. Under slot
 * sharing (Flink's default) a job holds, per slot-sharing group, as many slots as its largest
 * vertex there: lowering any other vertex frees nothing, yet restarts the job, which then replays
 * what it read since its last checkpoint (on Nexmark Q11, a source lowered 2 -> 1 beside a keyed
 * vertex at 32 put 90,000 records back into a backlog the job was draining at ~300/s). Such a
 * scale-down stays the vertex's target and is made with the next rescale the job needs anyway.
 */
final class SlotSaving {
  private SlotSaving() {}

  /**
   * Whether the rescale to {@code targets} frees nothing (every changed vertex is lowered and the
   * job would hold as many slots as now): then each lowered vertex is put back at its parallelism
   * in {@code targets}, saying why in {@code extra}.
   */
  static boolean keptForNoSlot(
      JobGraph graph, List<Proposal> proposals, int[] targets, Reason[] extra) {
    int[] current = new int[targets.length];
    boolean lowered = false;
    for (int i = 0; i < targets.length; i++) {
      current[i] = proposals.get(i).estimate().currentParallelism();
      if (targets[i] > current[i]) {
        return false;
      }
      lowered |= targets[i] < current[i];
    }
    if (!lowered) {
      return false;
    }
    SlotGroups groups = SlotGroups.of(graph, proposals);
    int now = groups.held(current);
    if (groups.held(targets) < now) {
      return false;
    }
    String message =
        "lowering frees no slot: the job holds "
            + now
            + " either way (its largest vertex per slot-sharing group); made with the next"
            + " rescale the job needs";
    for (int i = 0; i < targets.length; i++) {
      if (targets[i] < current[i]) {
        extra[i] =
            new Reason(
                ReasonCode.NO_SLOT_FREED,
                "wants "
                    + targets[i]
                    + "; "
                    + message
                    + (extra[i] == null || extra[i].code() == ReasonCode.SCALE_DOWN_JOINED
                        ? "" // a join that is not made: its text would say it is
                        : " (" + extra[i].message() + ")"));
        targets[i] = current[i];
      }
    }
    return true;
  }
}
