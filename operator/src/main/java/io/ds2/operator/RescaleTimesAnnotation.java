package io.ds2.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How long the job's recent rescales took (the forecast's lead time), in the annotation {@code
 * ds2.io/rescale-times}: a JSON array of seconds, oldest first. A restarted controller or a new
 * leader looks ahead by them at once, instead of by a window until the next rescale is measured.
 */
final class RescaleTimesAnnotation {
  static final String KEY = JobSettings.PREFIX + "rescale-times";
  private static final ObjectMapper JSON = new ObjectMapper();

  private RescaleTimesAnnotation() {}

  sealed interface Read {}

  record Restored(List<Duration> rescales) implements Read {}

  record Unreadable(String why) implements Read {}

  static String write(List<Duration> rescales) {
    ArrayNode seconds = JSON.createArrayNode();
    rescales.forEach(d -> seconds.add(d.toMillis() / 1000.0));
    return seconds.toString();
  }

  /** Empty if absent; unreadable (to be reported, then ignored) unless an array of seconds. */
  static Optional<Read> read(Map<String, String> annotations) {
    String text = annotations == null ? null : annotations.get(KEY);
    if (text == null) {
      return Optional.empty();
    }
    try {
      JsonNode root = JSON.readTree(text);
      if (root == null || !root.isArray()) {
        return Optional.of(unreadable("not a JSON array of seconds"));
      }
      List<Duration> rescales = new ArrayList<>();
      for (JsonNode n : root) {
        double s = n.isNumber() ? n.asDouble() : Double.NaN;
        if (!(s > 0) || Double.isInfinite(s)) {
          return Optional.of(unreadable("'" + n + "' is not a positive number of seconds"));
        }
        rescales.add(Duration.ofMillis(Math.round(s * 1000)));
      }
      return Optional.of(new Restored(rescales));
    } catch (IOException e) {
      return Optional.of(unreadable("not JSON"));
    }
  }

  private static Unreadable unreadable(String why) {
    return new Unreadable(
        "annotation " + KEY + ": " + why + "; the lead time is learnt anew from the next rescale");
  }
}
