package io.ds2.flink;

import io.ds2.core.window.SourceFetch;
import io.ds2.core.window.SubtaskSample.Counter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The metric names one vertex offers, as listed by {@code GET
 * /jobs/:jid/vertices/:vid/subtasks/metrics} (names without their subtask index): what {@link
 * JobSampler} asks for, since Flink answers nothing for a request naming a missing metric.
 *
 * @param sourceRecordsIn for a source, its operator's {@code numRecordsIn} (records read; the
 *     task-level counter stays 0 for FLIP-27 sources), next to its {@code pendingRecords}
 * @param splits for a source whose reader names its splits, the prefix of those names
 * @param fetches for a source whose client reports its fetches, the prefix of those names
 * @param emitLag for a source, its operator's {@code currentEmitEventTimeLag} (FLIP-33)
 */
record MetricNames(
    List<Counter> counters,
    Optional<String> pendingRecords,
    Optional<String> sourceRecordsIn,
    Optional<String> splits,
    Optional<String> fetches,
    Optional<String> emitLag) {
  private static final String PENDING_RECORDS = ".pendingRecords";
  private static final String EMIT_LAG = ".currentEmitEventTimeLag";
  // KafkaSource's reader group, under its source operator's scope ({@link SplitListing})
  private static final String KAFKA_READER = ".KafkaSourceReader.";
  // Its consumer's own metrics, registered by name when its split reader starts
  private static final String KAFKA_CONSUMER = KAFKA_READER + "KafkaConsumer.";

  /** Whether every name a decision needs is there (a source's backlog comes a little later). */
  boolean complete(boolean source) {
    return counters.size() == Counter.values().length && (!source || pendingRecords.isPresent());
  }

  static MetricNames of(List<String> ids) {
    List<Counter> counters = new ArrayList<>();
    for (Counter c : Counter.values()) {
      if (ids.contains(c.flinkName())) {
        counters.add(c);
      }
    }
    Optional<String> pending =
        ids.stream().filter(id -> id.endsWith(PENDING_RECORDS)).sorted().findFirst();
    // The source operator's scope, e.g. "Source__S"
    Optional<String> operator =
        pending.map(p -> p.substring(0, p.length() - PENDING_RECORDS.length()));
    Optional<String> read =
        operator.map(o -> o + "." + Counter.RECORDS_IN.flinkName()).filter(ids::contains);
    // A KafkaSource's reader group exists from the reader's start (commitsSucceeded), before it
    // has registered any partition: its splits are listed until the listing is whole.
    Optional<String> splits =
        operator
            .map(o -> o + KAFKA_READER)
            .filter(prefix -> ids.stream().anyMatch(id -> id.startsWith(prefix)))
            .map(prefix -> prefix + "topic.");
    Optional<String> fetches =
        operator
            .map(o -> o + KAFKA_CONSUMER)
            .filter(prefix -> ids.contains(prefix + SourceFetch.Gauge.FETCH_RATE.clientName()));
    Optional<String> emitLag = operator.map(o -> o + EMIT_LAG).filter(ids::contains);
    return new MetricNames(counters, pending, read, splits, fetches, emitLag);
  }
}
