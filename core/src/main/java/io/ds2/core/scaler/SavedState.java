package io.ds2.core.scaler;

import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.policy.ScalingPolicy;
import java.util.Optional;

/**
 * What a controller must not forget across a restart or a leader change: the policy's pending
 * scale-downs and back-off, and how keyed vertices' input spread at the parallelisms they ran at.
 *
 * @param policy empty for policies that keep no state of their own
 */
public record SavedState(Optional<ScalingPolicy.State> policy, KeyedHistory keyed) {
  public static final SavedState EMPTY = new SavedState(Optional.empty(), KeyedHistory.empty());
}
