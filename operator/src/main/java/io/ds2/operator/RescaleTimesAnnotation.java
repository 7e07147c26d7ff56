package io.ds2.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
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

  static String write(List<Duration> rescales) {
    ArrayNode seconds = JSON.createArrayNode();
    rescales.forEach(d -> seconds.add(d.toMillis() / 1000.0));
    return seconds.toString();
  }

  /** Empty if absent; unreadable (to be reported, then ignored) unless an array of seconds. */
  static Optional<StateAnnotation.Read<List<Duration>>> read(Map<String, String> annotations) {
    return StateAnnotation.read(
        annotations,
        KEY,
        RescaleTimesAnnotation::parse,
        "the lead time is learnt anew from the next rescale");
  }

  private static List<Duration> parse(JsonNode root) throws StateAnnotation.Malformed {
    if (!root.isArray()) {
      throw new StateAnnotation.Malformed("not a JSON array of seconds");
    }
    List<Duration> rescales = new ArrayList<>();
    for (JsonNode n : root) {
      double s = n.isNumber() ? n.asDouble() : Double.NaN;
      if (!(s > 0) || Double.isInfinite(s)) {
        throw new StateAnnotation.Malformed("'" + n + "' is not a positive number of seconds");
      }
      rescales.add(Duration.ofMillis(Math.round(s * 1000)));
    }
    return rescales;
  }
}
