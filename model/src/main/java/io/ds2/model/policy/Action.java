package io.ds2.model.policy;

import io.ds2.model.estimate.Reason;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a decision asks for. */
public sealed interface Action {
  /** Run every vertex at the given parallelism (all vertices, sources unchanged). */
  record Rescale(Map<String, Integer> parallelism) implements Action {
    public Rescale {
      // not Map.copyOf: it probes long runs for ids with similar hashes ("v1", "v2", ...)
      parallelism = Collections.unmodifiableMap(new LinkedHashMap<>(parallelism));
    }
  }

  /** Change nothing now, for the given reason. */
  record Hold(Reason reason) implements Action {}
}
