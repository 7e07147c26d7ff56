package io.ds2.core.window;

import io.ds2.core.window.SubtaskSample.Counter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Since when a source's backlog gauge has stood at one value, reading by reading; a reading whose
 * gauge has stood still too long says nothing of the topic's head at its own time.
 *
 * <p>A Kafka source's lag ({@code pendingRecords}) is the partition's head as of the consumer's
 * last poll less its position. A source its job holds back polls only when the records it fetched
 * have been taken; at the rates measured here (300-800 records/s, 500-record polls) that is every
 * second or two, and the gauge's sawtooth stays within the noise the fit is built for (about 400
 * records). Once its job's buffers are full the source stops polling altogether, and the gauge
 * stands while records keep arriving: at Flink's defaults (32 KiB buffers that hold tens of
 * thousands of small records, metrics refreshed every 10 s) the sub-linear job's gauge stood at one
 * value for 30 s after a rescale, and fits that took those readings read its 360 records/s as 599
 * and 694/s (and before it, a gauge at zero on a source blocked for 20 s read 246/s). Standing
 * {@value #STALE_SECONDS} s or more — half Flink's default refresh, more than a polling source's
 * sawtooth at these rates — a reading is left out: over a waiting backlog, or at zero while the
 * source was held back most of the time (at zero and free, it keeps up with an idle topic).
 */
final class GaugeAge {
  static final double STALE_SECONDS = 5;

  private VertexSample first;
  private Instant since;
  private VertexSample previous;
  private Instant previousAt;

  /**
   * @param first the run's earliest reading showing the gauge's value at the first reading to come
   *     (null if unknown)
   * @param since when it was read
   * @param previous the run's reading just before the first to come (null if none)
   * @param previousAt when it was read
   */
  GaugeAge(VertexSample first, Instant since, VertexSample previous, Instant previousAt) {
    this.first = first;
    this.since = since;
    this.previous = previous;
    this.previousAt = previousAt;
  }

  /** Takes the next reading: whether its gauge has stood too long to tell the topic's head. */
  boolean stale(VertexSample v, Instant at) {
    VertexSample before = previous;
    Instant beforeAt = previousAt;
    previous = v;
    previousAt = at;
    if (v.pendingRecords().isEmpty()) {
      first = null;
      return false;
    }
    double p = v.pendingRecords().getAsDouble();
    if (first == null || !same(first, p)) {
      first = v;
      since = at;
      return false;
    }
    return seconds(since, at) >= STALE_SECONDS
        && (p > 0 || before != null && backPressured(before, v, seconds(beforeAt, at)));
  }

  /** Whether the gauge shows {@code value}. */
  static boolean same(VertexSample v, double value) {
    return v != null && v.pendingRecords().isPresent() && v.pendingRecords().getAsDouble() == value;
  }

  /**
   * A gauge standing at zero is a source that keeps up with an idle topic, unless the source was
   * held back most of the time since the reading before: then it did not poll, and records may be
   * waiting unseen.
   */
  private static boolean backPressured(VertexSample from, VertexSample to, double seconds) {
    if (seconds <= 0) {
      return false;
    }
    OptionalDouble a = VertexWindow.sumOf(from.subtasks(), Counter.BACK_PRESSURED_TIME_MS);
    OptionalDouble b = VertexWindow.sumOf(to.subtasks(), Counter.BACK_PRESSURED_TIME_MS);
    if (a.isEmpty() || b.isEmpty() || to.subtasks().isEmpty()) {
      return false;
    }
    double ratio = (b.getAsDouble() - a.getAsDouble()) / (1000 * seconds * to.subtasks().size());
    return ratio > 0.5;
  }

  private static double seconds(Instant a, Instant b) {
    return (b.getEpochSecond() - a.getEpochSecond()) + (b.getNano() - a.getNano()) / 1e9;
  }

  /**
   * The age of a source's backlog gauge at the first reading its fit takes (the lead-in's first,
   * else the window's first point): since the earliest of the run's readings before it, warm-up
   * included, that shows the same value with no other in between.
   *
   * @param runLatestFirst the run's polls before the window's, latest first
   */
  static GaugeAge at(
      List<JobSample> samples,
      VertexSample[][] values,
      int firstPoint,
      int pos,
      List<JobSample> runLatestFirst,
      VertexWindow.Readings leadIn) {
    boolean fromLeadIn = leadIn.size > 0;
    VertexSample first = fromLeadIn ? leadIn.values[0] : values[firstPoint][pos];
    Instant at = fromLeadIn ? leadIn.polls[0].time() : samples.get(firstPoint).time();
    // The run's readings before the first, latest first: the point's samples, then earlier polls.
    List<VertexSample> earlier = new ArrayList<>();
    List<Instant> times = new ArrayList<>();
    if (!fromLeadIn) {
      for (int k = firstPoint - 1; k >= 0; k--) {
        earlier.add(values[k][pos]);
        times.add(samples.get(k).time());
      }
    }
    for (JobSample s : runLatestFirst) {
      if (s.time().isBefore(at)) {
        earlier.add(s.vertices().get(first.vertexId()));
        times.add(s.time());
      }
    }
    VertexSample previous = null;
    Instant previousAt = null;
    for (int k = 0; k < earlier.size(); k++) {
      if (earlier.get(k) != null && !earlier.get(k).equals(first)) {
        previous = earlier.get(k);
        previousAt = times.get(k);
        break;
      }
    }
    if (first.pendingRecords().isEmpty()) {
      return new GaugeAge(null, null, previous, previousAt);
    }
    double value = first.pendingRecords().getAsDouble();
    VertexSample earliest = first;
    Instant since = at;
    for (int k = 0; k < earlier.size() && GaugeAge.same(earlier.get(k), value); k++) {
      earliest = earlier.get(k);
      since = times.get(k);
    }
    return new GaugeAge(earliest, since, previous, previousAt);
  }
}
