package io.ds2.core.policy;

import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import java.util.List;

/**
 * Caps every vertex's target at the slots the job can get: asked for more, the adaptive scheduler
 * waits for slots that never come and the Flink operator deploys what cannot start. A vertex
 * already above the cap (slots taken by other jobs meanwhile) is not raised, nor lowered for it.
 */
final class SlotLimit {
  private SlotLimit() {}

  static void apply(
      List<VertexTargets.Proposal> proposals, int[] targets, Reason[] extra, SlotCapacity c) {
    if (c.slots().isEmpty()) {
      return;
    }
    int slots = c.slots().getAsInt();
    for (int i = 0; i < targets.length; i++) {
      int current = proposals.get(i).estimate().currentParallelism();
      int cap = Math.max(slots, Math.min(current, targets[i]));
      if (targets[i] > cap) {
        extra[i] =
            new Reason(
                ReasonCode.SLOT_LIMIT,
                "wants "
                    + targets[i]
                    + "; the job can get "
                    + slots
                    + " slots ("
                    + c.source()
                    + ")");
        targets[i] = cap;
      }
    }
  }
}
