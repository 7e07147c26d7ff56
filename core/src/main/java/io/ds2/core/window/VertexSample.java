package io.ds2.core.window;

import io.ds2.core.split.SplitOwnership;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One vertex at one poll: its state, parallelism, every subtask's counters and, for a source that
 * reports them, the backlog ({@code pendingRecords}, summed over subtasks) and the splits each
 * subtask reads.
 *
 * @param splits for a source whose reader names its splits in its metrics (KafkaSource), which
 *     subtask reads which; empty otherwise
 * @param fetches for a source whose client reports how it fetches (KafkaSource's consumer), one per
 *     subtask; empty otherwise (recorded for replay; no decision reads it)
 * @param emitLagMs for a source that reports it, per subtask, how old the last record it emitted
 *     was by its timestamp when the gauge was read, in ms (Flink's {@code currentEmitEventTimeLag},
 *     FLIP-33, for a KafkaSource the record's Kafka timestamp unless the job assigns its own): a
 *     source reading slower than records arrive emits ever older ones, whatever its client has
 *     already fetched, so the lag grows by {@code 1 - read/arrival} a second ({@link RecordAge}).
 *     Empty when the source does not report it or no record carried a timestamp
 */
public record VertexSample(
    String vertexId,
    String status,
    int parallelism,
    List<SubtaskSample> subtasks,
    OptionalDouble pendingRecords,
    Optional<SplitOwnership> splits,
    List<SourceFetch> fetches,
    List<OptionalDouble> emitLagMs) {
  public VertexSample {
    subtasks = List.copyOf(subtasks);
    Objects.requireNonNull(splits, "splits");
    fetches = List.copyOf(fetches);
    emitLagMs = List.copyOf(emitLagMs);
    onePerSubtask(vertexId, parallelism, fetches, "fetch");
    onePerSubtask(vertexId, parallelism, emitLagMs, "emit lag");
  }

  /** A vertex whose client does not say how it fetches. */
  public VertexSample(
      String vertexId,
      String status,
      int parallelism,
      List<SubtaskSample> subtasks,
      OptionalDouble pendingRecords,
      Optional<SplitOwnership> splits) {
    this(vertexId, status, parallelism, subtasks, pendingRecords, splits, List.of(), List.of());
  }

  /** A vertex whose splits (if any) are not named in its metrics. */
  public VertexSample(
      String vertexId,
      String status,
      int parallelism,
      List<SubtaskSample> subtasks,
      OptionalDouble pendingRecords) {
    this(
        vertexId,
        status,
        parallelism,
        subtasks,
        pendingRecords,
        Optional.empty(),
        List.of(),
        List.of());
  }

  /** Per-subtask readings are one per subtask, or none: never one moved to another subtask. */
  private static void onePerSubtask(
      String vertexId, int parallelism, List<?> readings, String what) {
    if (!readings.isEmpty() && readings.size() != parallelism) {
      throw new IllegalArgumentException(
          "vertex "
              + vertexId
              + ": "
              + readings.size()
              + " "
              + what
              + " readings at parallelism "
              + parallelism);
    }
  }

  // The record's equality, written out: the window compares each vertex's consecutive readings,
  // and comparing the subtask lists through iterators was a tenth of building it. The splits,
  // fetch and emit lag readings are not compared: a reading is fresh when its counters and backlog
  // are, and ownership is no value.
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof VertexSample v)
        || parallelism != v.parallelism
        || subtasks.size() != v.subtasks.size()) {
      return false;
    }
    for (int i = 0; i < subtasks.size(); i++) {
      if (!subtasks.get(i).equals(v.subtasks.get(i))) {
        return false;
      }
    }
    return Objects.equals(vertexId, v.vertexId)
        && Objects.equals(status, v.status)
        && Objects.equals(pendingRecords, v.pendingRecords);
  }

  @Override
  public int hashCode() {
    return Objects.hash(vertexId, status, parallelism, subtasks, pendingRecords);
  }
}
