package io.ds2.workloads.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.workloads.source.RateSchedule;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The feed keeps the schedule's time on the wall clock, the clock the benchmark's phases and
 * recordings are on: where the wall clock moves on without it (a machine frozen for 20 s), what
 * became due meanwhile is sent at once instead of the whole load running late.
 */
class KafkaRateProducerTest {
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @Test
  void whatTheWallClockMadeDueIsSentAtOnce(@TempDir Path dir) throws Exception {
    try (KafkaBroker broker = KafkaBroker.start(dir, 1)) {
      Map<String, Object> common =
          Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
      try (Admin admin = Admin.create(common)) {
        admin
            .createTopics(List.of(new NewTopic("orders", 2, (short) 1)))
            .all()
            .get(60, TimeUnit.SECONDS);
      }
      AtomicLong wall = new AtomicLong(1_000_000);
      LongSupplier clock = wall::get;
      KafkaRateProducer p =
          KafkaRateProducer.start(
              broker.bootstrapServers(),
              "orders",
              2,
              RateSchedule.constant(100),
              n -> new byte[16],
              clock);
      try {
        assertEquals(0, p.sent(), "nothing is due before the clock moves");
        wall.addAndGet(1_000);
        awaitSent(p, 100);
        // The machine stood still 20 s: the wall clock moved on, and the 2,000 records due
        // meanwhile go out at once.
        wall.addAndGet(20_000);
        awaitSent(p, 2_100);
        assertEquals(0, p.behind());
      } finally {
        p.close();
      }
    }
  }

  private static void awaitSent(KafkaRateProducer p, long records) throws InterruptedException {
    Instant deadline = Instant.now().plus(DEADLINE);
    while (p.sent() < records && Instant.now().isBefore(deadline)) {
      LockSupport.parkNanos(10_000_000); // polls the counter; the deadline bounds the wait
    }
    assertEquals(records, p.sent(), "records handed to the producer by " + DEADLINE);
    assertTrue(p.behind() <= records);
  }
}
