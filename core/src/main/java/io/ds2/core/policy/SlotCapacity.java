package io.ds2.core.policy;

import java.util.OptionalInt;

/**
 * How many task slots a job can get now, and where the figure comes from (for the reason a capped
 * vertex shows). Under Flink's default slot sharing a job needs as many slots as its largest vertex
 * parallelism, so the figure caps every vertex.
 *
 * @param slots the slots, if known (a cluster that starts task managers on demand has no fixed
 *     number)
 * @param source where the figure comes from, e.g. "the cluster: 12 free + 8 held by the job"
 */
public record SlotCapacity(OptionalInt slots, String source) {
  public SlotCapacity {
    if (slots.isPresent() && slots.getAsInt() < 1) {
      throw new IllegalArgumentException("a job can get at least one slot, not " + slots);
    }
  }

  public static SlotCapacity unknown() {
    return new SlotCapacity(OptionalInt.empty(), "unknown");
  }

  public static SlotCapacity of(int slots, String source) {
    return new SlotCapacity(OptionalInt.of(Math.max(1, slots)), source);
  }

  /** The smaller of the two known figures, with its source. */
  public SlotCapacity min(SlotCapacity other) {
    if (slots.isEmpty()) {
      return other;
    }
    if (other.slots.isEmpty() || slots.getAsInt() <= other.slots.getAsInt()) {
      return this;
    }
    return other;
  }
}
