package io.ds2.core.window;

import java.util.OptionalDouble;

/**
 * How one source subtask's client fetches, as the client reports it: the Kafka consumer's fetch
 * metrics, which KafkaSource registers under {@code KafkaSourceReader.KafkaConsumer}, each an
 * average over the client's own sample windows (two of 30 s by default). Kept in recordings so that
 * the age of a backlog gauge can be studied from real runs: a saturated consumer fetches a
 * partition again only once it has taken what it fetched before, and its lag counts each
 * partition's head as of that fetch, so how often it fetches says how old the gauge's view of the
 * head is. No decision reads it.
 *
 * @param fetchesPerSecond fetch requests per second ({@code fetch-rate})
 * @param recordsPerFetch records per fetch request ({@code records-per-request-avg})
 * @param fetchLatencyMs from a fetch's request to its answer being taken ({@code
 *     fetch-latency-avg}): measured on the headline job at Kafka's default fetch, 15-30 ms for a
 *     consumer at its partitions' heads, and 1.5-14 s for one behind them, whose answers wait until
 *     its job takes the records fetched before
 * @param bytesPerFetch bytes per fetch request ({@code fetch-size-avg}): a consumer behind all its
 *     partitions gets up to {@code max.partition.fetch.bytes} (1 MiB by default) from each
 *     partition a request asks for, one nearing their heads less; unlike the records per request it
 *     does not depend on record size. Absent in recordings made before it was kept.
 */
public record SourceFetch(
    OptionalDouble fetchesPerSecond,
    OptionalDouble recordsPerFetch,
    OptionalDouble fetchLatencyMs,
    OptionalDouble bytesPerFetch) {

  /** The client's gauges, by the names Kafka's consumer gives them. */
  public enum Gauge {
    FETCH_RATE("fetch-rate"),
    RECORDS_PER_FETCH("records-per-request-avg"),
    FETCH_LATENCY_MS("fetch-latency-avg"),
    FETCH_BYTES("fetch-size-avg");

    private final String clientName;

    Gauge(String clientName) {
      this.clientName = clientName;
    }

    public String clientName() {
      return clientName;
    }
  }

  /** One value per {@link Gauge}, in its order. */
  public static SourceFetch of(OptionalDouble[] byGauge) {
    return new SourceFetch(byGauge[0], byGauge[1], byGauge[2], byGauge[3]);
  }

  public OptionalDouble get(Gauge g) {
    return switch (g) {
      case FETCH_RATE -> fetchesPerSecond;
      case RECORDS_PER_FETCH -> recordsPerFetch;
      case FETCH_LATENCY_MS -> fetchLatencyMs;
      case FETCH_BYTES -> bytesPerFetch;
    };
  }
}
