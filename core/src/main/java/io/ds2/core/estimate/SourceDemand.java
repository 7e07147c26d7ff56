package io.ds2.core.estimate;

import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The rate a source must be able to read (records/s arriving, whole vertex), and how it was
 * derived. In records read where the source counts them (a FLIP-27 source's operator does), so a
 * chain that filters, flat-maps or ends in a sink is sized by what arrives; in records emitted
 * where it does not (a legacy source). Downstream, the source's vertex emits this times its chain's
 * selectivity.
 *
 * @param targetRate the demand the graph is sized for
 * @param basis where the demand came from
 * @param observedRate what the source read during the window (emitted, where reads are not counted)
 * @param backlogGrowthRate slope of {@code pendingRecords}, if the source reports it
 * @param catchUpRate extra rate to drain the standing backlog within the catch-up time, if set
 * @param scale the what-if factor already applied to {@code targetRate} (1 when sized as measured)
 * @param shift the arrival rate early and late in the window, if they differ enough to show the
 *     load changed during it (then the window's average is neither the old nor the new demand)
 */
public record SourceDemand(
    String vertexId,
    double targetRate,
    Basis basis,
    double observedRate,
    OptionalDouble backlogGrowthRate,
    OptionalDouble catchUpRate,
    double scale,
    Optional<Shift> shift) {

  /** Arrival rates (records/s) over the first and the second half of the window. */
  public record Shift(double early, double late) {}

  /**
   * What arrived at the source during the window, records/s: the demand as measured, without a
   * what-if factor or catch-up. For a stated demand, the observed rate plus any backlog growth.
   */
  public double currentRate() {
    if (basis == Basis.EXPLICIT) {
      return observedRate + Math.max(0, backlogGrowthRate.orElse(0));
    }
    return Math.max(0, targetRate / scale - catchUpRate.orElse(0));
  }

  /** This demand times {@code factor}: a what-if on the measured demand. */
  public SourceDemand scaledBy(double factor) {
    return new SourceDemand(
        vertexId,
        targetRate * factor,
        basis,
        observedRate,
        backlogGrowthRate,
        catchUpRate,
        scale * factor,
        shift);
  }

  public enum Basis {
    /** Given by the user ({@code --source-rate}). */
    EXPLICIT,
    /** Arrival rate = output + backlog growth (+ catch-up): what arrives at the source's input. */
    BACKLOG,
    /**
     * The source never waited for records and its backlog gauge cannot show what arrives (a Kafka
     * consumer holding fetched records its lag does not count): a bounded step above what it read.
     */
    BACKLOG_HIDDEN,
    /**
     * The source never waited for records, and the records it emits grew older since its readings
     * found it at its heads: what arrives is what it read / (1 - that growth a second), more than
     * its backlog gauge shows ({@link io.ds2.core.window.RecordAge}).
     */
    RECORD_AGE,
    /**
     * No backlog metric: observed output scaled by 1 / (1 - back-pressured ratio), the rate the
     * source would emit unthrottled (DS2's source true output rate; FLINK-33306).
     */
    BACKPRESSURE_EXTRAPOLATED,
    /** No backlog metric and no back-pressure: observed output. */
    OBSERVED
  }
}
