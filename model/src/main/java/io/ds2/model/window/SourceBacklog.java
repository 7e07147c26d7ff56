package io.ds2.model.window;

import io.ds2.model.window.SubtaskSample.Counter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/** A source's backlog over a window, fitted to its fresh readings. */
final class SourceBacklog {
  private SourceBacklog() {}

  /**
   * @param readings polls at which this vertex had new values (no repeats), first to last
   * @return empty if the vertex reports no {@code pendingRecords} (or too few readings of it)
   */
  static Optional<Backlog> fit(List<JobSample> readings, String id) {
    // Only sources report a backlog: the fit is not set up for any other vertex.
    int reported = 0;
    for (JobSample p : readings) {
      reported += p.vertices().get(id).pendingRecords().isPresent() ? 1 : 0;
    }
    if (reported < 2) {
      return Optional.empty();
    }
    SimpleRegression pending = new SimpleRegression();
    SimpleRegression arrived = new SimpleRegression();
    List<double[]> arrivals = new ArrayList<>();
    JobSample start = readings.get(0);
    VertexSample first = start.vertices().get(id);
    double perRead =
        outputPerRecordRead(first, readings.get(readings.size() - 1).vertices().get(id));
    Counter read = perRead == 1 ? Counter.RECORDS_OUT : Counter.RECORDS_IN;
    double last = 0;
    for (JobSample p : readings) {
      VertexSample v = p.vertices().get(id);
      OptionalDouble done = VertexWindow.sumOf(v.subtasks(), read);
      if (v.pendingRecords().isEmpty() || done.isEmpty()) {
        continue;
      }
      double t = TaskClock.between(first, v, VertexWindow.pollSeconds(start, p)).seconds();
      last = v.pendingRecords().getAsDouble() * perRead;
      pending.addData(t, last);
      double total = last + done.getAsDouble() * perRead;
      arrived.addData(t, total);
      arrivals.add(new double[] {t, total});
    }
    if (pending.getN() < 2) {
      return Optional.empty();
    }
    double firstT = arrivals.get(0)[0];
    double lastT = arrivals.get(arrivals.size() - 1)[0];
    double middle = (firstT + lastT) / 2;
    return Optional.of(
        new Backlog(
            last,
            pending.getSlope(),
            arrived.getSlope(),
            (int) pending.getN(),
            lastT - firstT,
            slope(arrivals.stream().filter(a -> a[0] <= middle).toList()),
            slope(arrivals.stream().filter(a -> a[0] >= middle).toList())));
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

  /** Least-squares slope of (t, value) pairs, if there are enough of them to mean something. */
  private static OptionalDouble slope(List<double[]> data) {
    if (data.size() < Backlog.MIN_POINTS_PER_HALF) {
      return OptionalDouble.empty();
    }
    SimpleRegression r = new SimpleRegression();
    data.forEach(d -> r.addData(d[0], d[1]));
    return OptionalDouble.of(r.getSlope());
  }
}
