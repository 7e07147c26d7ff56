package io.ds2.core.window;

import io.ds2.core.window.SubtaskSample.Counter;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A source's backlog over a window, fitted to its fresh readings.
 *
 * <p><b>Why the arrival rate looks back past the window.</b> Kafka's {@code records-lag} (Flink's
 * {@code pendingRecords}) is the high watermark as of the consumer's last fetch less its position.
 * A source that is behind fetches only when it has drained what it fetched, so the gauge is seconds
 * old by a varying amount: measured here at 400 records/s, (records emitted + lag) sat up to 400
 * records off its line, and the arrival rate fitted over single 10 s windows scattered ±8 % (sd;
 * 368–469/s), while over 30 s it stayed within 2.5 %. So readings of the same run from before the
 * window (the lead-in) are fitted too, from the earliest one whose own rate agrees with the
 * window's to within the gauge's noise (or 3 %): a load change larger than that shortens the fit
 * instead of being averaged over.
 */
final class SourceBacklog {
  /**
   * Where the gauge is fresh, a steady source's rates over a window and over the seconds before it
   * agree to a percent or so; a lead-in that straddles a load change differs by more, so it is not
   * taken in (a looser bound would let a change partly into the fit).
   */
  private static final double LEAD_IN_TOLERANCE = 0.03;

  /**
   * A fitted rate over span S is off by up to (error at its start + error at its end) / S; the
   * largest residual of a handful of readings under-reads the gauge's range, so twice it is taken
   * as each end's error. Measured on a lagging 300-400 records/s Kafka source: every steady
   * window's halves and lead-in within this bound, a doubling of the load far outside it.
   */
  private static final double NOISE_FACTOR = 2;

  private SourceBacklog() {}

  /**
   * @param readings the vertex's fresh readings in the window (no repeats), first to last
   * @param leadIn its fresh readings of the same run from before the window, first to last (none
   *     when the window is the first of its run)
   * @param age the gauge's age at the first reading to come (the lead-in's, else the window's)
   * @return empty if the vertex reports no {@code pendingRecords} (or too few readings of it)
   */
  static Optional<Backlog> fit(
      VertexWindow.Readings readings, VertexWindow.Readings leadIn, GaugeAge age) {
    // Only sources report a backlog: the fit is not set up for any other vertex.
    if (gaugeReadings(readings) < 2) {
      return Optional.empty();
    }
    VertexSample first = readings.values[0];
    Counter read = readCounter(first, readings.last());
    // Lead-in readings first (negative times), then the window's (from 0): one series.
    int capacity = leadIn.size + readings.size;
    double[] times = new double[capacity];
    double[] totals = new double[capacity];
    double[] pending = new double[capacity];
    int lead = addLeadIn(leadIn, readings, read, age, times, totals, pending);
    int end = lead;
    for (int k = 0; k < readings.size; k++) {
      VertexSample v = readings.values[k];
      OptionalDouble done = VertexWindow.sumOf(v.subtasks(), read);
      boolean stale = age.stale(v, readings.polls[k].time());
      if (v.pendingRecords().isEmpty() || done.isEmpty() || stale) {
        continue;
      }
      times[end] = secondsSinceFirst(readings, k);
      pending[end] = v.pendingRecords().getAsDouble();
      totals[end] = pending[end] + done.getAsDouble();
      end++;
    }
    int points = end - lead;
    if (points < 2) {
      return Optional.empty();
    }
    Line window = Line.fit(times, totals, lead, end);
    double span = times[end - 1] - times[lead];
    int from = agreeingStart(times, totals, lead, end, window);
    double middle = (times[lead] + times[end - 1]) / 2;
    Line early = Line.fit(times, totals, lead, upTo(times, lead, end, middle));
    Line late = Line.fit(times, totals, from(times, lead, end, middle), end);
    boolean halves =
        early.n >= Backlog.MIN_POINTS_PER_HALF
            && late.n >= Backlog.MIN_POINTS_PER_HALF
            && early.span > 0
            && late.span > 0;
    Line arrival = from == lead ? window : Line.fit(times, totals, from, end);
    // With a lead-in, the long line is the best truth there is: the window's distance from it is
    // the gauge's noise, which a half's few readings alone under-read.
    double noise = Math.max(early.maxResidual, late.maxResidual);
    if (from < lead) {
      noise = Math.max(noise, arrival.maxResidualOver(times, totals, lead, end));
    }
    return Optional.of(
        new Backlog(
            pending[end - 1],
            Line.fit(times, pending, lead, end).slope,
            arrival.slope,
            points,
            span,
            halves ? OptionalDouble.of(early.slope) : OptionalDouble.empty(),
            halves ? OptionalDouble.of(late.slope) : OptionalDouble.empty(),
            times[end - 1] - times[from],
            halves ? noiseTolerance(noise, early, late) : 0,
            0, // fitted over this run only
            // Over the lead-in too (this run's windows before, up to two): at a 10 s refresh a
            // window holds two or three intervals, and a blind gauge is not blind in each of them
            // the same way (a window may grow by less than the reads, stand still, or jump).
            HiddenHeads.seen(totals, pending, 0, end)));
  }

  /** How many of the readings report the backlog gauge. */
  static int gaugeReadings(VertexWindow.Readings readings) {
    int reported = 0;
    for (int k = 0; k < readings.size; k++) {
      reported += readings.values[k].pendingRecords().isPresent() ? 1 : 0;
    }
    return reported;
  }

  /**
   * Puts the lead-in's usable readings before the window's, timed back from the window's first
   * reading; none if a counter went down on the way into the window (not the same run after all).
   *
   * @return how many were put
   */
  private static int addLeadIn(
      VertexWindow.Readings leadIn,
      VertexWindow.Readings readings,
      Counter read,
      GaugeAge age,
      double[] times,
      double[] totals,
      double[] pending) {
    VertexSample first = readings.values[0];
    OptionalDouble firstDone = VertexWindow.sumOf(first.subtasks(), read);
    if (firstDone.isEmpty() || first.pendingRecords().isEmpty()) {
      return 0;
    }
    int n = 0;
    double before = 0;
    for (int k = 0; k < leadIn.size; k++) {
      VertexSample v = leadIn.values[k];
      OptionalDouble done = VertexWindow.sumOf(v.subtasks(), read);
      boolean stale = age.stale(v, leadIn.polls[k].time());
      if (v.pendingRecords().isEmpty()
          || done.isEmpty()
          || stale
          || !"RUNNING".equals(v.status())
          || v.parallelism() != first.parallelism()
          || v.subtasks().size() != first.subtasks().size()) {
        continue;
      }
      if (done.getAsDouble() > firstDone.getAsDouble() || done.getAsDouble() < before) {
        return 0;
      }
      double t =
          -TaskClock.between(
                  v,
                  first,
                  VertexWindow.pollSeconds(leadIn.polls[k], readings.polls[0]),
                  readings.scratch(first.subtasks().size()))
              .seconds();
      if (t >= 0 || (n > 0 && t <= times[n - 1])) {
        continue;
      }
      before = done.getAsDouble();
      times[n] = t;
      pending[n] = v.pendingRecords().getAsDouble();
      totals[n] = pending[n] + done.getAsDouble();
      n++;
    }
    return n;
  }

  /**
   * The earliest lead-in reading from which the lead-in's own arrival rate (up to the window's
   * first reading) agrees with the window's, over at least half the window's span, to within what
   * the gauge's noise allows; {@code lead} (the window's first reading) if none does.
   */
  private static int agreeingStart(
      double[] times, double[] totals, int lead, int end, Line window) {
    double windowSpan = times[end - 1] - times[lead];
    for (int j = 0; j < lead; j++) {
      double span = times[lead] - times[j];
      if (span < windowSpan / 2 || lead - j + 1 < Backlog.MIN_POINTS_PER_HALF) {
        break; // later starts are shorter still
      }
      Line before = Line.fit(times, totals, j, lead + 1);
      // The gauge's noise as the window shows it: a lead-in straddling a change would count its
      // own kink as noise and let itself in.
      double noise = NOISE_FACTOR * window.maxResidual * (1 / span + 1 / windowSpan);
      double larger = Math.max(Math.abs(before.slope), Math.abs(window.slope));
      if (Math.abs(before.slope - window.slope) <= Math.max(LEAD_IN_TOLERANCE * larger, noise)) {
        return j;
      }
    }
    return lead;
  }

  /**
   * How far apart two fitted rates may be from the gauge's noise alone: readings off the truth by
   * up to {@code noise} at either end of each line's span.
   */
  private static double noiseTolerance(double noise, Line a, Line b) {
    return NOISE_FACTOR * noise * (1 / a.span + 1 / b.span);
  }

  private static int upTo(double[] times, int from, int end, double t) {
    int k = from;
    while (k < end && times[k] <= t) {
      k++;
    }
    return k;
  }

  private static int from(double[] times, int from, int end, double t) {
    int k = from;
    while (k < end && times[k] < t) {
      k++;
    }
    return k;
  }

  private static double secondsSinceFirst(VertexWindow.Readings readings, int k) {
    VertexSample first = readings.values[0];
    return TaskClock.between(
            first,
            readings.values[k],
            VertexWindow.pollSeconds(readings.polls[0], readings.polls[k]),
            readings.scratch(first.subtasks().size()))
        .seconds();
  }

  /** The counter that says what a source read between two readings ({@link #countsReads}). */
  static Counter readCounter(VertexSample from, VertexSample to) {
    return countsReads(from, to) ? Counter.RECORDS_IN : Counter.RECORDS_OUT;
  }

  /**
   * {@code pendingRecords} counts records the source has not read yet: with the records it read
   * (its source operator's count), their sum grows at the arrival rate, whatever its chain emits (a
   * filter, a flat map, a sink chained to it). A source that does not count reads (a legacy source)
   * is taken by what it emits.
   */
  static boolean countsReads(VertexSample from, VertexSample to) {
    OptionalDouble in0 = VertexWindow.sumOf(from.subtasks(), Counter.RECORDS_IN);
    OptionalDouble in1 = VertexWindow.sumOf(to.subtasks(), Counter.RECORDS_IN);
    return in0.isPresent() && in1.isPresent() && in1.getAsDouble() > in0.getAsDouble();
  }

  /** A least-squares line through readings {@code [from, to)}: slope, spread, span. */
  private static final class Line {
    final int n;
    final double slope;
    final double maxResidual;
    final double span;
    private final double meanX;
    private final double meanY;

    private Line(int n, double slope, double maxResidual, double span, double meanX, double meanY) {
      this.n = n;
      this.slope = slope;
      this.maxResidual = maxResidual;
      this.span = span;
      this.meanX = meanX;
      this.meanY = meanY;
    }

    /** The largest distance of readings {@code [from, to)} from this line. */
    double maxResidualOver(double[] x, double[] y, int from, int to) {
      double worst = 0;
      for (int k = from; k < to; k++) {
        worst = Math.max(worst, Math.abs(y[k] - (meanY + slope * (x[k] - meanX))));
      }
      return worst;
    }

    static Line fit(double[] x, double[] y, int from, int to) {
      int n = to - from;
      if (n < 2) {
        return new Line(n, 0, 0, 0, 0, 0);
      }
      double mx = 0;
      double my = 0;
      for (int k = from; k < to; k++) {
        mx += x[k];
        my += y[k];
      }
      mx /= n;
      my /= n;
      double sxx = 0;
      double sxy = 0;
      for (int k = from; k < to; k++) {
        sxx += (x[k] - mx) * (x[k] - mx);
        sxy += (x[k] - mx) * (y[k] - my);
      }
      double slope = sxx > 0 ? sxy / sxx : 0;
      Line line = new Line(n, slope, 0, x[to - 1] - x[from], mx, my);
      return new Line(n, slope, line.maxResidualOver(x, y, from, to), line.span, mx, my);
    }
  }
}
