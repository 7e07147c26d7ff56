package io.ds2.workloads.kafka;

import java.time.Duration;
import java.util.Properties;

/**
 * Where a job's sources read from instead of generating: one Kafka topic per source ({@link
 * #topicOf}), with checkpoints every {@code checkpointInterval} so that the read offsets survive a
 * rescale and a backlog built up before it must be drained after it.
 */
public record KafkaInput(
    String bootstrapServers, Duration checkpointInterval, boolean smallFetches) {
  /**
   * Consumers with {@link #MAX_PARTITION_FETCH_BYTES} fetches, so that their lag is seconds fresh
   * (tests that check a lag-driven size say so where they use it).
   */
  public KafkaInput(String bootstrapServers, Duration checkpointInterval) {
    this(bootstrapServers, checkpointInterval, true);
  }

  /** Consumers at Kafka's defaults (1 MiB fetches per partition), as jobs are written. */
  public static KafkaInput atKafkaDefaults(String bootstrapServers, Duration checkpointInterval) {
    return new KafkaInput(bootstrapServers, checkpointInterval, false);
  }

  public KafkaInput {
    if (bootstrapServers == null || bootstrapServers.isBlank()) {
      throw new IllegalArgumentException("no Kafka bootstrap servers");
    }
    if (checkpointInterval.isNegative() || checkpointInterval.isZero()) {
      throw new IllegalArgumentException("checkpoint interval must be positive");
    }
  }

  /**
   * Bytes the consumer fetches per partition at a time (Kafka's default: 1 MiB). The KafkaSource's
   * {@code pendingRecords} is the consumer's {@code records-lag}: the partition's high watermark as
   * of the last fetch, less the read position. A back-pressured source drains what it fetched
   * before it fetches again, so with 1 MiB of 300-byte records (3,500 a partition) the high
   * watermark, and with it the lag, stays tens of seconds old: measured here, a job falling behind
   * by 150 records/s showed a lag growing by 0.5/s. At 4 KiB the lag is at most a dozen or so
   * records stale. (A production job with large fetches shows the same understatement to any
   * autoscaler that reads this metric.)
   */
  public static final int MAX_PARTITION_FETCH_BYTES = 4 * 1024;

  /** What the job's consumers are configured with beyond Flink's and Kafka's defaults. */
  public Properties consumerProperties() {
    Properties p = new Properties();
    if (smallFetches) {
      p.setProperty("max.partition.fetch.bytes", String.valueOf(MAX_PARTITION_FETCH_BYTES));
    }
    return p;
  }

  /** The topic source {@code source} of job {@code job} reads. */
  public static String topicOf(String job, String source) {
    return (job + "." + source).replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
