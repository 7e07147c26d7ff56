package io.ds2.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.policy.ScalingPolicy;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Iterator;
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

  /**
   * Empty if absent; unreadable (to be reported, then ignored: the policy starts fresh, which is
   * conservative) unless written by ds2.
   */
  static Optional<StateAnnotation.Read<ScalingPolicy.State>> read(Map<String, String> annotations) {
    return StateAnnotation.read(
        annotations,
        KEY,
        PolicyStateAnnotation::parse,
        "the policy starts fresh: pending scale-downs wait out their delay again, no back-off is"
            + " kept");
  }

  private static ScalingPolicy.State parse(JsonNode root) throws StateAnnotation.Malformed {
    JsonNode downs = root.path("scaleDowns");
    if (!root.isObject() || !(downs.isMissingNode() || downs.isObject())) {
      throw new StateAnnotation.Malformed("not an object of scaleDowns and backoffUntil");
    }
    Map<String, ScalingPolicy.ScaleDown> byVertex = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = downs.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode d = e.getValue();
      String what = "the scale-down of vertex " + e.getKey();
      if (!d.path("since").isTextual() || !d.path("highest").isInt()) {
        throw new StateAnnotation.Malformed(what + " has no since and highest");
      }
      byVertex.put(
          e.getKey(),
          new ScalingPolicy.ScaleDown(instant(d.get("since"), what), d.get("highest").asInt()));
    }
    JsonNode backoff = root.path("backoffUntil");
    return new ScalingPolicy.State(
        byVertex,
        backoff.isMissingNode() || backoff.isNull()
            ? Optional.empty()
            : Optional.of(instant(backoff, "backoffUntil")));
  }

  private static Instant instant(JsonNode n, String what) throws StateAnnotation.Malformed {
    try {
      return Instant.parse(n.asText());
    } catch (DateTimeParseException e) {
      throw new StateAnnotation.Malformed(what + ": '" + n.asText() + "' is not a time");
    }
  }
}
