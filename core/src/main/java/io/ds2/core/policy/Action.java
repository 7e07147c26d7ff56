package io.ds2.core.policy;

import io.ds2.core.estimate.Reason;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a decision asks for. */
public sealed interface Action {
  /** Run every vertex at the given parallelism (every vertex, sources included). */
  record Rescale(Map<String, Integer> parallelism) implements Action {
    public Rescale {
      // not Map.copyOf: it probes long runs for ids with similar hashes ("v1", "v2", ...)
      parallelism =
          Collections.unmodifiableMap(
              parallelism instanceof Fresh ? parallelism : new LinkedHashMap<>(parallelism));
    }

    /**
     * A map to fill and then hand to the constructor, which keeps it without a copy (at 1,000
     * vertices the copy was a tenth of a decision). Its filler must not touch it afterwards.
     */
    static Map<String, Integer> fresh(int vertices) {
      return new Fresh(vertices);
    }

    private static final class Fresh extends LinkedHashMap<String, Integer> {
      Fresh(int vertices) {
        super(2 * vertices);
      }
    }
  }

  /** Change nothing now, for the given reason. */
  record Hold(Reason reason) implements Action {}
}
