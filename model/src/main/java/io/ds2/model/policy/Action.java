package io.ds2.model.policy;

import io.ds2.model.estimate.Reason;
import java.util.Map;

/** What a decision asks for. */
public sealed interface Action {
  /** Run every vertex at the given parallelism (all vertices, sources unchanged). */
  record Rescale(Map<String, Integer> parallelism) implements Action {
    public Rescale {
      parallelism = Map.copyOf(parallelism);
    }
  }

  /** Change nothing now, for the given reason. */
  record Hold(Reason reason) implements Action {}
}
