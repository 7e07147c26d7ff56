package io.ds2.core.scaler;

import io.ds2.core.forecast.DemandHistory;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.policy.ScalingPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What a controller must not forget across a restart or a leader change: the policy's pending
 * scale-downs and back-off, how keyed vertices' input spread at the parallelisms they ran at, and
 * what the forecast learns from: the sources' demand history and how long the job's recent rescales
 * took (its lead time; a controller that forgot them would look ahead by a window only until the
 * next rescale).
 *
 * @param policy empty for policies that keep no state of their own
 * @param demand empty when the forecast is off
 * @param rescales the job's recent rescale times, oldest first; empty when the forecast is off
 */
public record SavedState(
    Optional<ScalingPolicy.State> policy,
    KeyedHistory keyed,
    DemandHistory.Snapshot demand,
    List<Duration> rescales) {
  public static final SavedState EMPTY =
      new SavedState(Optional.empty(), KeyedHistory.empty(), DemandHistory.Snapshot.EMPTY);

  public SavedState {
    rescales = List.copyOf(rescales);
  }

  /** Without rescale times. */
  public SavedState(
      Optional<ScalingPolicy.State> policy, KeyedHistory keyed, DemandHistory.Snapshot demand) {
    this(policy, keyed, demand, List.of());
  }

  /** Without a demand history or rescale times (the forecast off). */
  public SavedState(Optional<ScalingPolicy.State> policy, KeyedHistory keyed) {
    this(policy, keyed, DemandHistory.Snapshot.EMPTY);
  }
}
