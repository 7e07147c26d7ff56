package io.ds2.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;

/** Reading the CLI's JSON estimates in tests. */
final class JsonEstimates {
  private JsonEstimates() {}

  /** Every vertex's {@code field} (a parallelism), by vertex name: sources are sized too. */
  static Map<String, Integer> recommended(JsonNode vertices, String field) {
    Map<String, Integer> result = new HashMap<>();
    for (JsonNode v : vertices) {
      result.put(v.get("name").asText(), v.get(field).asInt());
    }
    return result;
  }
}
