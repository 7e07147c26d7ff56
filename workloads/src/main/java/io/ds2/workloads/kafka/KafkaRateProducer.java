package io.ds2.workloads.kafka;

import io.ds2.workloads.source.RateSchedule;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes a rate schedule to a topic on a wall-clock schedule, as the outside world would: record n
 * is sent once the schedule has n records due, to partition n mod partitions, whether or not anyone
 * reads them. A job that cannot keep up leaves them in the topic: its consumer lag grows.
 */
public final class KafkaRateProducer implements AutoCloseable {
  private static final long MAX_WAIT_MS = 5;

  private final KafkaProducer<byte[], byte[]> producer;
  private final Thread thread;
  private final AtomicLong sent = new AtomicLong();
  // records the schedule had due at the last check (behind = due - sent)
  private volatile long due;
  private volatile boolean running = true;

  private KafkaRateProducer(
      String bootstrapServers,
      String topic,
      int partitions,
      RateSchedule schedule,
      LongFunction<byte[]> records,
      LongSupplier wallMillis) {
    producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class.getName(),
                ProducerConfig.LINGER_MS_CONFIG,
                "5",
                ProducerConfig.ACKS_CONFIG,
                "1"));
    // The schedule's zero is the caller's now, not whenever the thread first runs: on a busy
    // machine that can be late, and everything due meanwhile would never be sent.
    long start = wallMillis.getAsLong();
    thread =
        new Thread(
            () -> run(topic, partitions, schedule, records, wallMillis, start),
            "kafka-rate-producer-" + topic);
    thread.setDaemon(true);
  }

  /**
   * Starts writing {@code schedule} (records/s from now) to {@code topic}: sequence records ({@link
   * SequenceRecords}) of {@code bytes} bytes.
   */
  public static KafkaRateProducer start(
      String bootstrapServers, String topic, int partitions, RateSchedule schedule, int bytes) {
    return start(
        bootstrapServers, topic, partitions, schedule, n -> SequenceRecords.record(n, bytes));
  }

  /** As above, record n being {@code records.apply(n)}. */
  public static KafkaRateProducer start(
      String bootstrapServers,
      String topic,
      int partitions,
      RateSchedule schedule,
      LongFunction<byte[]> records) {
    return start(bootstrapServers, topic, partitions, schedule, records, System::currentTimeMillis);
  }

  /** As above, the schedule's time read from {@code wallMillis} (a test's clock). */
  static KafkaRateProducer start(
      String bootstrapServers,
      String topic,
      int partitions,
      RateSchedule schedule,
      LongFunction<byte[]> records,
      LongSupplier wallMillis) {
    KafkaRateProducer p =
        new KafkaRateProducer(bootstrapServers, topic, partitions, schedule, records, wallMillis);
    p.thread.start();
    return p;
  }

  /** Records handed to the producer so far. */
  public long sent() {
    return sent.get();
  }

  /**
   * Records the schedule had due that were not yet handed to the producer, as of its last check:
   * above 0 for long only if the producer stalled (it then sends them at once, a burst the job sees
   * as arrival). A benchmark records it so such a burst is told apart from the load.
   */
  public long behind() {
    return Math.max(0, due - sent.get());
  }

  private void run(
      String topic,
      int partitions,
      RateSchedule schedule,
      LongFunction<byte[]> records,
      LongSupplier wallMillis,
      long start) {
    // The wall clock, as the benchmark's phases and recordings: a monotonic clock stands still
    // while the machine is frozen (every bench's JVM stood still 20 s on 2026-12-06), and the whole
    // load then ran 20 s behind the schedule it was scored against. On the wall clock a freeze
    // leaves the records due at once, a burst, as the outside world would send after one.
    try {
      while (running) {
        double seconds = (wallMillis.getAsLong() - start) / 1e3;
        long now = (long) schedule.integral(0, seconds);
        due = now;
        for (long n = sent.get(); n < now && running; n = sent.incrementAndGet()) {
          producer.send(
              new ProducerRecord<>(topic, (int) (n % partitions), null, records.apply(n)));
        }
        Thread.sleep(MAX_WAIT_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(10_000);
    producer.close();
  }
}
