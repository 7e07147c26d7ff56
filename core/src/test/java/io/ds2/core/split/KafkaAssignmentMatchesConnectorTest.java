package io.ds2.core.split;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumerator;
import org.apache.kafka.common.TopicPartition;

/**
 * ds2's copy of KafkaSource's split assignment gives the reader the connector's own rule gives
 * ({@code KafkaSourceEnumerator.getSplitOwner}, package-private, called by reflection), for any
 * topic name, partition and parallelism. (Here, not in the model's tests: the model depends on no
 * Flink artifact.)
 */
class KafkaAssignmentMatchesConnectorTest {
  private static final Method OWNER;

  static {
    try {
      OWNER =
          KafkaSourceEnumerator.class.getDeclaredMethod(
              "getSplitOwner", TopicPartition.class, int.class);
      OWNER.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @Property(tries = 2000)
  void theRuleIsTheConnectorsRule(
      @ForAll @StringLength(min = 1, max = 40) String topic,
      @ForAll @IntRange(min = 0, max = 999) int partition,
      @ForAll @IntRange(min = 1, max = 512) int readers)
      throws Exception {
    int connector = (int) OWNER.invoke(null, new TopicPartition(topic, partition), readers);
    assertEquals(connector, KafkaAssignment.owner(topic, partition, readers));
  }
}
