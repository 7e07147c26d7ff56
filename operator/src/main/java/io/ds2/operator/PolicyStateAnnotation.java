package io.ds2.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.policy.ScalingPolicy;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The policy's state as compact JSON in the annotation {@code ds2.io/policy-state}. */
final class PolicyStateAnnotation {
  static final String KEY = JobSettings.PREFIX + "policy-state";
  private static final ObjectMapper JSON = new ObjectMapper();

  private PolicyStateAnnotation() {}

  static String write(ScalingPolicy.State state) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode downs = root.putObject("scaleDowns");
    state
        .scaleDowns()
        .forEach(
            (vertex, d) ->
                downs
                    .putObject(vertex)
                    .put("since", d.since().toString())
                    .put("highest", d.highest()));
    state.backoffUntil().ifPresent(t -> root.put("backoffUntil", t.toString()));
    return root.toString();
  }

  /** Empty if absent or unreadable: then the policy starts fresh (conservative). */
  static Optional<ScalingPolicy.State> read(Map<String, String> annotations) {
    String text = annotations == null ? null : annotations.get(KEY);
    if (text == null) {
      return Optional.empty();
    }
    try {
      JsonNode root = JSON.readTree(text);
      Map<String, ScalingPolicy.ScaleDown> downs = new HashMap<>();
      root.path("scaleDowns")
          .fields()
          .forEachRemaining(
              e ->
                  downs.put(
                      e.getKey(),
                      new ScalingPolicy.ScaleDown(
                          Instant.parse(e.getValue().get("since").asText()),
                          e.getValue().get("highest").asInt())));
      Optional<Instant> backoff =
          root.hasNonNull("backoffUntil")
              ? Optional.of(Instant.parse(root.get("backoffUntil").asText()))
              : Optional.empty();
      return Optional.of(new ScalingPolicy.State(downs, backoff));
    } catch (Exception e) {
      return Optional.empty();
    }
  }
}
