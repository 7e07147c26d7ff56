package io.ds2.flink;

import com.fasterxml.jackson.databind.JavaType;
import io.ds2.core.split.Split;
import io.ds2.core.split.SplitOwnership;
import io.ds2.flink.dto.MetricValue;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which subtask of a source reads which split, from the names its reader registers per split:
 * KafkaSource's {@code <operator>.KafkaSourceReader.topic.<topic>.partition.<n>.currentOffset}
 * (FLIP-33 defines no split metric; other FLIP-27 sources name none), listed with {@code GET
 * /jobs/:jid/vertices/:vid/metrics} (every subtask's names). A reader registers a split when its
 * fetcher takes it, just after the start, and Flink's metric store keeps the names a subtask index
 * had before a rescale (the model strikes those: {@link SplitOwnership#resolve}); so a vertex is
 * listed again at most every {@value #RELIST_SECONDS} s until two listings agree, and that one is
 * kept for the run: splits move only with a restart.
 */
final class SplitListing {
  private static final String PARTITION = ".partition.";
  private static final String CURRENT_OFFSET = ".currentOffset";

  static final int RELIST_SECONDS = 10;

  private final FlinkRestClient client;
  private final String jobId;
  private final JavaType metricList;
  private final Clock clock;
  private final Map<String, SplitOwnership> settled = new HashMap<>();
  private final Map<String, Listed> last = new HashMap<>();

  private record Listed(SplitOwnership splits, Instant at) {}

  SplitListing(FlinkRestClient client, String jobId, JavaType metricList, Clock clock) {
    this.client = client;
    this.jobId = jobId;
    this.metricList = metricList;
    this.clock = clock;
  }

  /** A new run: every vertex is listed again. */
  void clear() {
    settled.clear();
    last.clear();
  }

  /**
   * @param prefix the names' start up to the topic, e.g. {@code Source__S.KafkaSourceReader.topic.}
   * @return empty while the reader names no split yet
   */
  Optional<SplitOwnership> of(String vertexId, int parallelism, String prefix) {
    SplitOwnership known = settled.get(vertexId);
    if (known != null && known.parallelism() == parallelism) {
      return Optional.of(known);
    }
    Instant now = clock.instant();
    Listed before = last.get(vertexId);
    if (before != null
        && before.splits().parallelism() == parallelism
        && now.isBefore(before.at().plusSeconds(RELIST_SECONDS))) {
      return present(before.splits());
    }
    SplitOwnership seen = list(vertexId, parallelism, prefix);
    if (before != null && seen.equals(before.splits()) && seen.complete()) {
      settled.put(vertexId, seen);
    }
    last.put(vertexId, new Listed(seen, now));
    return present(seen);
  }

  private static Optional<SplitOwnership> present(SplitOwnership s) {
    return s.splits().isEmpty() ? Optional.empty() : Optional.of(s);
  }

  private SplitOwnership list(String vertexId, int parallelism, String prefix) {
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
    return new SplitOwnership(by);
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
