package io.ds2.core.policy;

import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.graph.JobGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Why the policy holds: a load change inside the window, or the vertices' own reasons. */
final class HoldReasons {
  private HoldReasons() {}

  /** The sources whose load changed inside the window, said in one line; empty if none. */
  static Optional<String> shiftOf(JobGraph graph, Estimate estimate) {
    List<String> shifted = new ArrayList<>();
    estimate
        .demands()
        .forEach(
            (id, d) ->
                d.shift()
                    .ifPresent(
                        s ->
                            shifted.add(
                                String.format(
                                    java.util.Locale.ROOT,
                                    "the load of %s changed from %.1f to %.1f records/s",
                                    graph.vertex(id).map(v -> v.name()).orElse(id),
                                    s.early(),
                                    s.late()))));
    return shifted.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", shifted));
  }

  // The most telling reason a hold has, for the one-line summary.
  static ReasonCode code(Reason[] extra) {
    for (ReasonCode c :
        List.of(
            ReasonCode.SLOT_LIMIT,
            ReasonCode.NO_SLOT_FREED,
            ReasonCode.SCALE_DOWN_DELAYED,
            ReasonCode.ACTIVATING,
            ReasonCode.DIRECTION_UNSTABLE,
            ReasonCode.SCALE_UP_WITHIN_HEADROOM)) {
      for (Reason r : extra) {
        if (r != null && r.code() == c) {
          return c;
        }
      }
    }
    return ReasonCode.NO_CHANGE;
  }

  static String message(Reason[] extra) {
    return switch (code(extra)) {
      case SLOT_LIMIT -> "the job runs at the most slots it can get; more would not start";
      case NO_SLOT_FREED ->
          "a scale-down frees no slot: it waits for the next rescale the job needs";
      case SCALE_DOWN_DELAYED -> "a scale-down is waiting out scale-down-delay";
      case ACTIVATING -> "a change is waiting for activation windows";
      case DIRECTION_UNSTABLE -> "recent windows disagree on the direction of a change";
      case SCALE_UP_WITHIN_HEADROOM ->
          "the busiest subtask keeps up within scale-up-tolerance of its target";
      default -> "every vertex runs at its target";
    };
  }
}
