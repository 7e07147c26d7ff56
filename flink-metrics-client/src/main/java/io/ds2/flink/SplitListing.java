package io.ds2.flink;

import com.fasterxml.jackson.databind.JavaType;
import io.ds2.flink.dto.MetricValue;
import io.ds2.model.split.Split;
import io.ds2.model.split.SplitOwnership;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which subtask of a source reads which split, from the names its reader registers per split:
 * KafkaSource's {@code <operator>.KafkaSourceReader.topic.<topic>.partition.<n>.currentOffset}
 * (FLIP-33 defines no split metric; other FLIP-27 sources name none). A reader registers a split
 * when its fetcher takes it, just after the start, so a vertex is listed again ({@code GET
 * /jobs/:jid/vertices/:vid/metrics}, every subtask's names) until a listing is whole, and then kept
 * for the run: splits move only with a restart.
 */
final class SplitListing {
  private static final String PARTITION = ".partition.";
  private static final String CURRENT_OFFSET = ".currentOffset";

  private final FlinkRestClient client;
  private final String jobId;
  private final JavaType metricList;
  private final Map<String, SplitOwnership> whole = new HashMap<>();

  SplitListing(FlinkRestClient client, String jobId, JavaType metricList) {
    this.client = client;
    this.jobId = jobId;
    this.metricList = metricList;
  }

  /** A new run: every vertex is listed again. */
  void clear() {
    whole.clear();
  }

  /**
   * @param prefix the names' start up to the topic, e.g. {@code Source__S.KafkaSourceReader.topic.}
   * @return empty while the reader names no split yet
   */
  Optional<SplitOwnership> of(String vertexId, int parallelism, String prefix) {
    SplitOwnership known = whole.get(vertexId);
    if (known != null && known.parallelism() == parallelism) {
      return Optional.of(known);
    }
    List<MetricValue> listed =
        client.get("/jobs/" + jobId + "/vertices/" + vertexId + "/metrics", metricList);
    List<List<Split>> by = new ArrayList<>();
    for (int i = 0; i < parallelism; i++) {
      by.add(new ArrayList<>());
    }
    for (MetricValue m : listed) {
      parse(m == null ? null : m.id(), prefix, parallelism)
          .ifPresent(e -> by.get(e.getKey()).add(e.getValue()));
    }
    SplitOwnership seen = new SplitOwnership(by);
    if (seen.complete()) {
      whole.put(vertexId, seen);
    }
    return seen.splits().isEmpty() ? Optional.empty() : Optional.of(seen);
  }

  /** {@code <i>.<prefix><topic>.partition.<n>.currentOffset} as subtask i and its split. */
  static Optional<Map.Entry<Integer, Split>> parse(String id, String prefix, int parallelism) {
    if (id == null || !id.endsWith(CURRENT_OFFSET)) {
      return Optional.empty();
    }
    int dot = id.indexOf('.');
    if (dot < 1 || !id.startsWith(prefix, dot + 1)) {
      return Optional.empty();
    }
    // Flink's metric names write '.' as '_', so the topic holds no ".partition.".
    String rest = id.substring(dot + 1 + prefix.length(), id.length() - CURRENT_OFFSET.length());
    int at = rest.lastIndexOf(PARTITION);
    if (at < 1) {
      return Optional.empty();
    }
    try {
      int subtask = Integer.parseInt(id.substring(0, dot));
      int partition = Integer.parseInt(rest.substring(at + PARTITION.length()));
      if (subtask < 0 || subtask >= parallelism || partition < 0) {
        return Optional.empty();
      }
      return Optional.of(Map.entry(subtask, new Split(rest.substring(0, at), partition)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
