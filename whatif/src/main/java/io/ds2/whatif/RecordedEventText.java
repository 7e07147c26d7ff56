package io.ds2.whatif;

import com.fasterxml.jackson.databind.JsonNode;
import io.ds2.recording.Recorded;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A recorded event as one line for people: rescales from their structured details, vertices by name
 * (the recording's topology at that time), never a Java object's text. Events of other kinds keep
 * the message they were recorded with.
 */
final class RecordedEventText {
  private RecordedEventText() {}

  /**
   * @param names vertex names by id, as the recording's last topology record had them
   */
  static String describe(Recorded.Event e, Map<String, String> names) {
    JsonNode d = e.details();
    JsonNode requested = d == null ? null : d.get("requested");
    if (requested == null || !requested.isObject()) {
      return e.message();
    }
    String parallelism = byName(requested, names);
    switch (e.kind()) {
      case "rescale-requested":
        return "requested " + parallelism;
      case "rescale-applied":
        return d.has("seconds")
            ? String.format(
                Locale.ROOT,
                "applied %s after %.1f s (down at most %.1f s)",
                parallelism,
                d.get("seconds").asDouble(),
                d.path("downtimeSeconds").asDouble())
            : "applied " + parallelism;
      default:
        // not-applied, failed, unsupported: ds2's own recordings keep the outcome's message.
        String why = d.path("message").asText("");
        return e.kind().replace("rescale-", "")
            + " "
            + parallelism
            + (why.isEmpty() ? "" : ": " + why);
    }
  }

  private static String byName(JsonNode parallelism, Map<String, String> names) {
    StringJoiner j = new StringJoiner(", ", "{", "}");
    // In the topology's order where it is known, so every line reads alike.
    names.forEach(
        (id, name) -> {
          if (parallelism.has(id)) {
            j.add(name + "=" + parallelism.get(id).asInt());
          }
        });
    parallelism
        .fields()
        .forEachRemaining(
            f -> {
              if (!names.containsKey(f.getKey())) {
                j.add(f.getKey() + "=" + f.getValue().asInt());
              }
            });
    return j.toString();
  }
}
