package io.ds2.model.split;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * KafkaSource's split assignment ({@code KafkaSourceEnumerator.getSplitOwner}): partition {@code n}
 * of topic {@code t} goes to reader {@code (((t.hashCode() * 31) & 0x7FFFFFFF) % p + n) % p}, each
 * topic on its own, again at every rescale from a checkpoint.
 *
 * <p>The rule needs the topic's real name, but the metrics name it with {@code .} written as {@code
 * _} (Flink's metric query service): {@code orders.v1} reads {@code orders_v1}. Each {@code _} may
 * stand for either, and the names that agree with every ownership seen are kept ({@link
 * #consistentWith}); where more than one remains, sizing takes the worst of them.
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
    return "Kafka topic " + sb + ", by the connector's assignment";
  }

  /**
   * Every reading of the reported topic names that agrees with each {@code seen} ownership of these
   * splits (at most {@value #MAX_NAMES} per topic); the names as reported if none does.
   */
  public static List<KafkaAssignment> consistentWith(
      List<Split> splits, List<SplitOwnership> seen) {
    List<String> reported = splits.stream().map(Split::topic).distinct().sorted().toList();
    Map<String, List<String>> names = new HashMap<>();
    for (String t : reported) {
      List<String> fit = new ArrayList<>();
      for (String candidate : readings(t)) {
        if (agrees(t, candidate, seen)) {
          fit.add(candidate);
        }
      }
      names.put(t, fit.isEmpty() ? List.of(t) : fit);
    }
    List<Map<String, String>> combos = new ArrayList<>();
    combos.add(Map.of());
    for (String t : reported) {
      List<Map<String, String>> next = new ArrayList<>();
      for (Map<String, String> c : combos) {
        for (String name : names.get(t)) {
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

  private static boolean agrees(String reported, String name, List<SplitOwnership> seen) {
    for (SplitOwnership o : seen) {
      int p = o.parallelism();
      for (int i = 0; i < p; i++) {
        for (Split s : o.bySubtask().get(i)) {
          if (s.topic().equals(reported) && owner(name, s.partition(), p) != i) {
            return false;
          }
        }
      }
    }
    return true;
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
