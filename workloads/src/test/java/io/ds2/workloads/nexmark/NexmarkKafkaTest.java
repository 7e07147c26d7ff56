package io.ds2.workloads.nexmark;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.kafka.KafkaBroker;
import io.ds2.workloads.kafka.KafkaInput;
import io.ds2.workloads.kafka.KafkaRateProducer;
import io.ds2.workloads.nexmark.NexmarkQuery.Query;
import io.ds2.workloads.source.RateSchedule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Nexmark query fed from a real Kafka topic of the generator's events, on a MiniCluster. */
class NexmarkKafkaTest {
  private static final int EVENTS = 2_000;
  private static final int PARTITIONS = 4;

  @Test
  void theQueryReadsEveryEventWrittenAndCommitsItsOffsetsOnCheckpoints(@TempDir Path dir)
      throws Exception {
    try (KafkaBroker broker = KafkaBroker.start(dir, PARTITIONS)) {
      NexmarkQuery q =
          new NexmarkQuery(Query.Q5, 100, 1, 2)
              .withKafka(new KafkaInput(broker.bootstrapServers(), Duration.ofSeconds(1)));
      String topic = KafkaInput.topicOf(q.name(), NexmarkQuery.EVENTS);
      broker.createTopic(topic, PARTITIONS);
      NexmarkGenerator generator = q.generator();
      // 2,000 events in the first second, then none.
      RateSchedule schedule =
          new RateSchedule(
              List.of(new RateSchedule.Phase(0, EVENTS), new RateSchedule.Phase(1, 0)));
      try (KafkaRateProducer producer =
              KafkaRateProducer.start(
                  broker.bootstrapServers(),
                  topic,
                  PARTITIONS,
                  schedule,
                  n -> EventRecords.of(generator.event(n)));
          LocalFlinkCluster cluster = LocalFlinkCluster.startAtFlinkDefaults(4, Map.of());
          Admin admin =
              Admin.create(
                  Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
        JobClient job = cluster.submit(q);
        // Offsets are committed when a checkpoint completes: all of them only once every record
        // was read, deserialized and passed on (a record that failed would restart the job).
        await()
            .atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> committed(admin, topic) == EVENTS);
        assertEquals(EVENTS, producer.sent());
        assertEquals(JobStatus.RUNNING, job.getJobStatus().get());
        job.cancel().get();
      }
    }
  }

  private static long committed(Admin admin, String group) throws Exception {
    long sum = 0;
    for (OffsetAndMetadata o :
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().values()) {
      sum += o == null ? 0 : o.offset();
    }
    return sum;
  }
}
