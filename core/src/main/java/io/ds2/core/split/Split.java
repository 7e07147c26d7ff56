package io.ds2.core.split;

import java.util.Objects;

/**
 * One split of a source: a Kafka partition, named by its topic as Flink's metrics report it and its
 * partition number, or split {@code partition} of a source whose splits are only counted (empty
 * topic).
 *
 * @param topic the topic as it appears in the reader's metric names: Flink's metric query service
 *     writes {@code .} (and space, comma, colon) as {@code _}, so {@code orders.v1} reads {@code
 *     orders_v1} ({@link KafkaAssignment} resolves it)
 */
public record Split(String topic, int partition) implements Comparable<Split> {
  public Split {
    Objects.requireNonNull(topic, "topic");
    if (partition < 0) {
      throw new IllegalArgumentException("split " + partition + " of " + topic + " is negative");
    }
  }

  /** Split {@code index} of a source whose splits are only counted. */
  public static Split numbered(int index) {
    return new Split("", index);
  }

  @Override
  public int compareTo(Split o) {
    int t = topic.compareTo(o.topic);
    return t != 0 ? t : Integer.compare(partition, o.partition);
  }

  @Override
  public String toString() {
    return topic.isEmpty() ? "split " + partition : topic + "-" + partition;
  }
}
