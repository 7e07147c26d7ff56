package io.ds2.model.window;

import io.ds2.model.window.SubtaskSample.Counter;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/** A source's backlog over a window, fitted to its fresh readings. */
final class SourceBacklog {
  private SourceBacklog() {}

  /**
   * @param readings the vertex's fresh readings (no repeats), first to last
   * @return empty if the vertex reports no {@code pendingRecords} (or too few readings of it)
   */
  static Optional<Backlog> fit(VertexWindow.Readings readings) {
    // Only sources report a backlog: the fit is not set up for any other vertex.
    int reported = 0;
    for (int k = 0; k < readings.size; k++) {
      reported += readings.values[k].pendingRecords().isPresent() ? 1 : 0;
    }
    if (reported < 2) {
      return Optional.empty();
    }
    SimpleRegression pending = new SimpleRegression();
    SimpleRegression arrived = new SimpleRegression();
    double[] times = new double[reported];
    double[] totals = new double[reported];
    int points = 0;
    JobSample start = readings.polls[0];
    VertexSample first = readings.values[0];
    double perRead = outputPerRecordRead(first, readings.last());
    Counter read = perRead == 1 ? Counter.RECORDS_OUT : Counter.RECORDS_IN;
    double last = 0;
    for (int k = 0; k < readings.size; k++) {
      VertexSample v = readings.values[k];
      OptionalDouble done = VertexWindow.sumOf(v.subtasks(), read);
      if (v.pendingRecords().isEmpty() || done.isEmpty()) {
        continue;
      }
      double t =
          TaskClock.between(
                  first,
                  v,
                  VertexWindow.pollSeconds(start, readings.polls[k]),
                  readings.scratch(first.subtasks().size()))
              .seconds();
      last = v.pendingRecords().getAsDouble() * perRead;
      pending.addData(t, last);
      double total = last + done.getAsDouble() * perRead;
      arrived.addData(t, total);
      times[points] = t;
      totals[points] = total;
      points++;
    }
    if (points < 2) {
      return Optional.empty();
    }
    double firstT = times[0];
    double lastT = times[points - 1];
    double middle = (firstT + lastT) / 2;
    return Optional.of(
        new Backlog(
            last,
            pending.getSlope(),
            arrived.getSlope(),
            points,
            lastT - firstT,
            slope(times, totals, points, t -> t <= middle),
            slope(times, totals, points, t -> t >= middle)));
  }

  /**
   * {@code pendingRecords} counts records the source has not read yet. Where the source vertex
   * counts the records it reads and emits a different number (a filter or flat map chained to the
   * source), demand in the vertex's output records is the read rate times output per read record,
   * measured over the window; otherwise 1 (the output counter stands in for reads).
   */
  private static double outputPerRecordRead(VertexSample from, VertexSample to) {
    OptionalDouble in0 = VertexWindow.sumOf(from.subtasks(), Counter.RECORDS_IN);
    OptionalDouble in1 = VertexWindow.sumOf(to.subtasks(), Counter.RECORDS_IN);
    OptionalDouble out0 = VertexWindow.sumOf(from.subtasks(), Counter.RECORDS_OUT);
    OptionalDouble out1 = VertexWindow.sumOf(to.subtasks(), Counter.RECORDS_OUT);
    if (in0.isEmpty() || in1.isEmpty() || out0.isEmpty() || out1.isEmpty()) {
      return 1;
    }
    double read = in1.getAsDouble() - in0.getAsDouble();
    double emitted = out1.getAsDouble() - out0.getAsDouble();
    return read > 0 && emitted >= 0 ? emitted / read : 1;
  }

  /**
   * Least-squares slope of the (t, value) pairs whose t is {@code in} the half, if there are enough
   * of them to mean something.
   */
  private static OptionalDouble slope(double[] times, double[] values, int n, DoublePredicate in) {
    SimpleRegression r = new SimpleRegression();
    for (int k = 0; k < n; k++) {
      if (in.test(times[k])) {
        r.addData(times[k], values[k]);
      }
    }
    return r.getN() < Backlog.MIN_POINTS_PER_HALF
        ? OptionalDouble.empty()
        : OptionalDouble.of(r.getSlope());
  }
}
