package io.ds2.core.window;

import io.ds2.core.split.SplitOwnership;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one vertex did during a window: counter deltas summed over its subtasks, the per-subtask
 * deltas, and the backlog for a source that reports one. Rates derive from these (DS2, OSDI'18:
 * true rate = records / useful time, with Flink's busy time as useful time).
 *
 * @param seconds the window's length for this vertex
 * @param timeBase the clock that measured {@code seconds}
 * @param busyTimeMs busy time summed over subtasks; empty if Flink did not report it
 * @param subtaskDeltas per-subtask counter deltas over the window
 * @param splits for a source naming its splits in its metrics, which subtask read which at the
 *     window's end
 * @param recordAge for a source fallen behind since its readings found it at its heads, what
 *     arrives by how old the records it emits grew ({@link RecordAge})
 */
public record VertexObservation(
    String vertexId,
    int parallelism,
    double seconds,
    TimeBase timeBase,
    double recordsIn,
    double recordsOut,
    OptionalDouble busyTimeMs,
    OptionalDouble idleTimeMs,
    OptionalDouble backPressuredTimeMs,
    List<SubtaskSample> subtaskDeltas,
    Optional<Backlog> backlog,
    Optional<SplitOwnership> splits,
    Optional<RecordAge> recordAge) {
  /**
   * Back-pressured for more of the window than this, a source read what its job let it, not what
   * arrives: the estimate extrapolates only then, and a window never lets it do so for a source
   * with a backlog gauge ({@code VertexWindow}).
   */
  public static final double NEGLIGIBLE_BACKPRESSURE = 0.01;

  public VertexObservation {
    if (seconds <= 0) {
      throw new IllegalArgumentException("window length must be positive, was " + seconds);
    }
    subtaskDeltas = List.copyOf(subtaskDeltas);
  }

  /** This observation with its records' age. */
  public VertexObservation withRecordAge(Optional<RecordAge> age) {
    return new VertexObservation(
        vertexId,
        parallelism,
        seconds,
        timeBase,
        recordsIn,
        recordsOut,
        busyTimeMs,
        idleTimeMs,
        backPressuredTimeMs,
        subtaskDeltas,
        backlog,
        splits,
        age);
  }

  /** A vertex whose splits (if any) are not named in its metrics. */
  public VertexObservation(
      String vertexId,
      int parallelism,
      double seconds,
      TimeBase timeBase,
      double recordsIn,
      double recordsOut,
      OptionalDouble busyTimeMs,
      OptionalDouble idleTimeMs,
      OptionalDouble backPressuredTimeMs,
      List<SubtaskSample> subtaskDeltas,
      Optional<Backlog> backlog) {
    this(
        vertexId,
        parallelism,
        seconds,
        timeBase,
        recordsIn,
        recordsOut,
        busyTimeMs,
        idleTimeMs,
        backPressuredTimeMs,
        subtaskDeltas,
        backlog,
        Optional.empty(),
        Optional.empty());
  }

  /** Observed (wall-clock) input rate of the whole vertex, records/s. */
  public double observedInputRate() {
    return recordsIn / seconds;
  }

  /**
   * Of a source: records read per second where its source operator counts them (FLIP-27), else
   * records emitted (a legacy source, whose reads are not counted): the unit its demand is in.
   */
  public double observedSourceRate() {
    return recordsIn > 0 ? observedInputRate() : observedOutputRate();
  }

  /**
   * Of a source: what its vertex emits per unit of {@link #observedSourceRate()} (its chain's
   * selectivity where reads are counted; 1 otherwise).
   */
  public double sourceSelectivity() {
    return recordsIn > 0 ? recordsOut / recordsIn : 1;
  }

  /** Observed (wall-clock) output rate of the whole vertex, records/s. */
  public double observedOutputRate() {
    return recordsOut / seconds;
  }

  /**
   * True processing rate of one instance: records per second of busy time, pooled over subtasks
   * (total records / total busy time). Empty when no record was processed or busy time is unknown
   * or zero.
   */
  public OptionalDouble trueProcessingRatePerInstance() {
    return perBusySecond(recordsIn);
  }

  /** True output rate of one instance: records emitted per second of busy time. */
  public OptionalDouble trueOutputRatePerInstance() {
    return perBusySecond(recordsOut);
  }

  /**
   * Output records per input record. The ratio of true output to true processing rate equals the
   * ratio of the counts, since both share the busy time. Empty if nothing was processed.
   */
  public OptionalDouble selectivity() {
    return recordsIn > 0 ? OptionalDouble.of(recordsOut / recordsIn) : OptionalDouble.empty();
  }

  /** Mean fraction of wall time the instances were busy, in [0, 1]. */
  public OptionalDouble busyRatio() {
    return fractionOfWall(busyTimeMs);
  }

  /** Mean fraction of wall time the instances were blocked on output (back-pressured). */
  public OptionalDouble backPressuredRatio() {
    return fractionOfWall(backPressuredTimeMs);
  }

  private OptionalDouble perBusySecond(double records) {
    if (records <= 0 || busyTimeMs.isEmpty() || busyTimeMs.getAsDouble() <= 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(records / (busyTimeMs.getAsDouble() / 1000.0));
  }

  private OptionalDouble fractionOfWall(OptionalDouble ms) {
    if (ms.isEmpty()) {
      return OptionalDouble.empty();
    }
    double ratio = ms.getAsDouble() / (parallelism * seconds * 1000.0);
    return OptionalDouble.of(Math.max(0, Math.min(1, ratio)));
  }
}
