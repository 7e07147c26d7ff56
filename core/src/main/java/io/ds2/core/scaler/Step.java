package io.ds2.core.scaler;

import java.util.List;

/**
 * The core's answer to one input: what happened (for the sinks), what to do next and when, and
 * whether what an earlier instance would need to continue (policy state, keyed history) changed.
 */
public record Step(List<ScalerEvent> events, ScalerAction next, boolean stateChanged) {
  public Step {
    events = List.copyOf(events);
  }
}
