package io.ds2.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.window.SubtaskSample.Counter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which of a vertex's listed metric names the sampler asks for. */
class MetricNamesTest {
  private static final List<String> TASK =
      Arrays.stream(Counter.values()).map(Counter::flinkName).toList();

  private static List<String> with(String... more) {
    List<String> ids = new ArrayList<>(TASK);
    ids.addAll(List.of(more));
    return ids;
  }

  @Test
  void aKafkaSourceOffersItsReadsBacklogSplitsAndFetchesUnderItsOperatorsScope() {
    MetricNames n =
        MetricNames.of(
            with(
                "Source__Orders.pendingRecords",
                "Source__Orders.numRecordsIn",
                "Source__Orders.KafkaSourceReader.commitsSucceeded",
                "Source__Orders.KafkaSourceReader.KafkaConsumer.fetch-rate",
                "Source__Orders.KafkaSourceReader.KafkaConsumer.fetch-latency-avg",
                "Source__Orders.currentEmitEventTimeLag"));
    assertTrue(n.complete(true));
    assertEquals(Optional.of("Source__Orders.currentEmitEventTimeLag"), n.emitLag());
    assertEquals(Optional.of("Source__Orders.pendingRecords"), n.pendingRecords());
    assertEquals(Optional.of("Source__Orders.numRecordsIn"), n.sourceRecordsIn());
    assertEquals(Optional.of("Source__Orders.KafkaSourceReader.topic."), n.splits());
    assertEquals(Optional.of("Source__Orders.KafkaSourceReader.KafkaConsumer."), n.fetches());
  }

  @Test
  void aSourceWithoutAKafkaReaderOrItsConsumerMetricsHasNeither() {
    MetricNames rate = MetricNames.of(with("Source__S.pendingRecords"));
    assertEquals(Optional.empty(), rate.splits());
    assertEquals(Optional.empty(), rate.fetches());
    assertEquals(Optional.empty(), rate.sourceRecordsIn(), "not listed, not asked for");
    assertEquals(Optional.empty(), rate.emitLag(), "not listed, not asked for");
    // register.consumer.metrics off: the reader's group is there, its consumer's metrics are not
    MetricNames quiet =
        MetricNames.of(
            with("Source__S.pendingRecords", "Source__S.KafkaSourceReader.commitsSucceeded"));
    assertTrue(quiet.splits().isPresent());
    assertEquals(Optional.empty(), quiet.fetches());
  }

  @Test
  void aSourceIsIncompleteUntilItsBacklogIsListedAnOperatorIsNot() {
    MetricNames n = MetricNames.of(TASK);
    assertFalse(n.complete(true), "a source's pendingRecords comes after its first fetch");
    assertTrue(n.complete(false));
    assertFalse(MetricNames.of(TASK.subList(1, TASK.size())).complete(false));
  }
}
