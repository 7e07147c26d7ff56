package io.ds2.core.split;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * KafkaSource's split assignment ({@code KafkaSourceEnumerator.getSplitOwner}): partition {@code n}
 * of topic {@code t} goes to reader {@code (((t.hashCode() * 31) & 0x7FFFFFFF) % p + n) % p}, each
 * topic on its own.
 *
 * <p>The rule holds where the enumerator assigns: a start without state (a first deployment, a
 * stateless upgrade, a job without checkpoints). A rescale from a checkpoint or savepoint hands the
 * readers' splits back from their state instead ({@link SplitAssignment.FromState}; checked on a
 * real broker: 4 partitions from 1 to 4 subtasks went to subtasks 1, 2, 3, 0, where this rule says
 * 2, 3, 0, 1). The rule needs the topic's real name, but the metrics write {@code .} as {@code _}
 * (Flink's metric query service): {@code orders.v1} reads {@code orders_v1}, and each {@code _} may
 * stand for either ({@link #forEveryReading}).
 *
 * @param topics the real topic name behind each name as reported
 */
public record KafkaAssignment(List<Split> splits, Map<String, String> topics)
    implements SplitAssignment {
  /** Beyond this many readings of an ambiguous name, only the name as reported is tried. */
  static final int MAX_NAMES = 64;

  public KafkaAssignment {
    splits = List.copyOf(new TreeSet<>(splits));
    topics = Map.copyOf(topics);
  }

  /** The rule itself: the reader of {@code partition} of {@code topic} among {@code readers}. */
  public static int owner(String topic, int partition, int readers) {
    int start = ((topic.hashCode() * 31) & 0x7FFFFFFF) % readers;
    return (start + partition) % readers;
  }

  @Override
  public int ownerOf(int split, int parallelism) {
    Split s = splits.get(split);
    return owner(topics.getOrDefault(s.topic(), s.topic()), s.partition(), parallelism);
  }

  @Override
  public String describe() {
    Map<String, Integer> partitions = new LinkedHashMap<>();
    splits.forEach(
        s -> partitions.merge(topics.getOrDefault(s.topic(), s.topic()), 1, Integer::sum));
    StringBuilder sb = new StringBuilder();
    partitions.forEach(
        (t, n) ->
            sb.append(sb.length() == 0 ? "" : ", ")
                .append(t)
                .append(" (")
                .append(n)
                .append(" partitions)"));
    return (partitions.size() == 1 ? "Kafka topic " : "Kafka topics ") + sb;
  }

  /**
   * The rule for every reading of the reported topic names (at most {@value #MAX_NAMES} in all):
   * which one is the topic cannot be told from the metrics, so sizing takes the worst of them (one
   * for a name without {@code _}).
   */
  public static List<KafkaAssignment> forEveryReading(List<Split> splits) {
    List<String> reported = splits.stream().map(Split::topic).distinct().sorted().toList();
    List<Map<String, String>> combos = new ArrayList<>();
    combos.add(Map.of());
    for (String t : reported) {
      List<Map<String, String>> next = new ArrayList<>();
      for (Map<String, String> c : combos) {
        for (String name : readings(t)) {
          if (next.size() < MAX_NAMES) {
            Map<String, String> m = new HashMap<>(c);
            m.put(t, name);
            next.add(m);
          }
        }
      }
      combos = next;
    }
    return combos.stream().map(m -> new KafkaAssignment(splits, m)).toList();
  }

  /**
   * The real names a reported name may stand for: each {@code _} read as {@code _} or {@code .}.
   */
  static List<String> readings(String reported) {
    List<String> out = new ArrayList<>();
    out.add(reported);
    for (int i = 0; i < reported.length(); i++) {
      if (reported.charAt(i) != '_') {
        continue;
      }
      int size = out.size();
      for (int k = 0; k < size && out.size() < MAX_NAMES; k++) {
        String s = out.get(k);
        out.add(s.substring(0, i) + '.' + s.substring(i + 1));
      }
    }
    return out;
  }
}
