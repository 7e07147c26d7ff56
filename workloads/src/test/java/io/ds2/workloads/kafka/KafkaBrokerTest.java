package io.ds2.workloads.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaBrokerTest {
  @Test
  void aBrokerOfItsOwnTakesRecordsAndGivesThemBackThroughTheConnectorsClient(@TempDir Path dir)
      throws Exception {
    try (KafkaBroker broker = KafkaBroker.start(dir, 4)) {
      Map<String, Object> common =
          Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
      try (Admin admin = Admin.create(common)) {
        admin
            .createTopics(List.of(new NewTopic("events", 3, (short) 1)))
            .all()
            .get(60, TimeUnit.SECONDS);
        assertEquals(
            3,
            admin
                .describeTopics(List.of("events"))
                .allTopicNames()
                .get()
                .get("events")
                .partitions()
                .size());
      }
      Properties p = new Properties();
      p.putAll(common);
      p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
      p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
      try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
        for (int i = 0; i < 1_000; i++) {
          producer.send(new ProducerRecord<>("events", new byte[300])); // a few hundred bytes
        }
        producer.flush();
      }
      Properties c = new Properties();
      c.putAll(common);
      c.put(ConsumerConfig.GROUP_ID_CONFIG, "test");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
      c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
      int read = 0;
      try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
        consumer.subscribe(List.of("events"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (read < 1_000 && System.nanoTime() < deadline) {
          read += consumer.poll(Duration.ofMillis(500)).count();
        }
      }
      assertEquals(1_000, read);
      assertTrue(broker.isRunning());
      broker.close();
      assertFalse(broker.isRunning());
    }
  }

  @Test
  void aClusterIdIsNeverTakenForAnOption() {
    for (int i = 0; i < 2_000; i++) { // about one in 64 random ids would start with '-'
      String id = KafkaBroker.clusterId();
      assertEquals(22, id.length());
      assertFalse(id.startsWith("-"), id);
    }
  }
}
