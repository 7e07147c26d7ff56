package io.ds2.core.scaler;

import io.ds2.core.forecast.DemandHistory;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.policy.ScalingPolicy;
import java.util.Optional;

/**
 * What a controller must not forget across a restart or a leader change: the policy's pending
 * scale-downs and back-off, how keyed vertices' input spread at the parallelisms they ran at, and
 * the sources' demand history the forecast learns from.
 *
 * @param policy empty for policies that keep no state of their own
 * @param demand empty when the forecast is off
 */
public record SavedState(
    Optional<ScalingPolicy.State> policy, KeyedHistory keyed, DemandHistory.Snapshot demand) {
  public static final SavedState EMPTY =
      new SavedState(Optional.empty(), KeyedHistory.empty(), DemandHistory.Snapshot.EMPTY);

  /** Without a demand history (the forecast off). */
  public SavedState(Optional<ScalingPolicy.State> policy, KeyedHistory keyed) {
    this(policy, keyed, DemandHistory.Snapshot.EMPTY);
  }
}
