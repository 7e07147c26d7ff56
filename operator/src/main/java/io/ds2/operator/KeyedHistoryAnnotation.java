package io.ds2.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.keyed.SubtaskShares;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What ds2 learnt of its keyed vertices' spreads over key groups and its sources' over splits (with
 * the subtask that read each split), as compact JSON in the annotation {@code
 * ds2.io/keyed-history}: a controller that restarts (or a new leader) goes on combining the
 * parallelisms the job ran at instead of starting again from one observation.
 *
 * <p>Kubernetes allows 256 KiB of annotations per object; this one is kept under {@value
 * #MAX_CHARS} characters by dropping each vertex's oldest observations first (a vertex at
 * parallelism 64 with four observations takes about 5 KB).
 */
final class KeyedHistoryAnnotation {
  static final String KEY = JobSettings.PREFIX + "keyed-history";
  static final int MAX_CHARS = 64 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  private KeyedHistoryAnnotation() {}

  static String write(KeyedHistory history) {
    Map<String, List<SubtaskShares>> kept = new TreeMap<>(history.byVertex());
    String text = render(kept);
    // Oldest first, one observation of every vertex per round, until it fits.
    while (text.length() > MAX_CHARS && kept.values().stream().anyMatch(l -> !l.isEmpty())) {
      kept.replaceAll((id, list) -> list.isEmpty() ? list : list.subList(0, list.size() - 1));
      text = render(kept);
    }
    return text;
  }

  private static String render(Map<String, List<SubtaskShares>> byVertex) {
    ObjectNode root = JSON.createObjectNode();
    byVertex.forEach(
        (vertex, observations) -> {
          if (observations.isEmpty()) {
            return;
          }
          ArrayNode list = root.putArray(vertex);
          for (SubtaskShares o : observations) {
            ObjectNode n =
                list.addObject()
                    .put("maxParallelism", o.maxParallelism())
                    .put("costPerRecord", o.costPerRecord())
                    .put("records", o.records());
            ArrayNode shares = n.putArray("shares");
            for (double s : o.shares()) {
              shares.add(s);
            }
            if (o.owners().isPresent()) { // a source: the subtask that read each split
              ArrayNode owners = n.putArray("splitOwners");
              for (int i : o.owners().get()) {
                owners.add(i);
              }
            }
          }
        });
    return root.toString();
  }

  /** Nothing to restore when absent; unreadable (to be reported, then ignored) when malformed. */
  static Optional<StateAnnotation.Read<KeyedHistory>> read(Map<String, String> annotations) {
    return StateAnnotation.read(
        annotations,
        KEY,
        KeyedHistoryAnnotation::parse,
        "keyed vertices start again from what the next window shows");
  }

  private static KeyedHistory parse(JsonNode root) throws StateAnnotation.Malformed {
    if (!root.isObject()) {
      throw new StateAnnotation.Malformed("not a JSON object");
    }
    Map<String, List<SubtaskShares>> byVertex = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isArray()) {
        throw new StateAnnotation.Malformed(
            "vertex " + e.getKey() + " has no list of observations");
      }
      List<SubtaskShares> list = new ArrayList<>();
      for (JsonNode o : e.getValue()) {
        list.add(
            observation(o)
                .orElseThrow(
                    () ->
                        new StateAnnotation.Malformed(
                            "an observation of vertex " + e.getKey() + " is invalid")));
      }
      byVertex.put(e.getKey(), list);
    }
    return new KeyedHistory(byVertex);
  }

  private static Optional<SubtaskShares> observation(JsonNode o) {
    JsonNode shares = o.path("shares");
    JsonNode owners = o.path("splitOwners");
    if (!o.path("maxParallelism").isInt()
        || !o.path("costPerRecord").isNumber()
        || !o.path("records").isNumber()
        || !shares.isArray()
        || shares.isEmpty()
        || (owners.isMissingNode() && shares.size() > o.get("maxParallelism").asInt())
        || (!owners.isMissingNode()
            && (!owners.isArray() || owners.size() != o.get("maxParallelism").asInt()))) {
      return Optional.empty();
    }
    int[] splitOwners = null;
    if (!owners.isMissingNode()) {
      splitOwners = new int[owners.size()];
      for (int i = 0; i < splitOwners.length; i++) {
        JsonNode w = owners.get(i);
        if (!w.isInt() || w.asInt() < -1 || w.asInt() >= shares.size()) {
          return Optional.empty();
        }
        splitOwners[i] = w.asInt();
      }
    }
    double[] values = new double[shares.size()];
    double sum = 0;
    for (int i = 0; i < values.length; i++) {
      JsonNode s = shares.get(i);
      if (!s.isNumber() || !(s.asDouble() >= 0)) {
        return Optional.empty();
      }
      values[i] = s.asDouble();
      sum += values[i];
    }
    double cost = o.get("costPerRecord").asDouble();
    double records = o.get("records").asDouble();
    // Shares of one observation sum to 1; anything else was not written by ds2.
    if (Math.abs(sum - 1) > 1e-6 || !(cost >= 0) || !(records > 0)) {
      return Optional.empty();
    }
    return Optional.of(
        splitOwners == null
            ? new SubtaskShares(o.get("maxParallelism").asInt(), values, cost, records)
            : SubtaskShares.ofSplits(splitOwners, values, cost, records));
  }
}
