package io.ds2.core.scaler;

import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.keyed.SubtaskShares;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.SubtaskSample.Counter;
import io.ds2.core.window.VertexSample;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A rescale watched until the job has caught up with what arrived while it was down: how long a
 * rescale really costs (request to caught up), which is what a forecast must look ahead by. Caught
 * up is read from the sources' own counters, not their lag (at Kafka's default fetch a lag reads
 * near zero while a saturated source is still behind): since the restart every source has read at
 * least what arrived at it while the job was down (at the arrival rate measured in the window that
 * asked for the rescale), and then, between two polls, waited for records (busy or held back less
 * than {@link SubtaskShares#SATURATED_BUSY} of the time): it has nothing left to catch up on. A
 * source that has not read the downtime's records yet may wait for its first fetch; one still
 * catching up never waits. The counters may be a metric refresh old (10 s at Flink's default), so
 * caught up is seen up to that late: the lead time errs long. A source that never waits (sized for
 * 1.0 exactly) is never seen caught up: the rescale then counts from request to running.
 */
final class CatchUp {
  private final Instant requestedAt;
  // Per source vertex id: its arrival rate (records/s) when the rescale was asked for.
  private final Map<String, Double> arrival;
  // Per source vertex id: busy + back-pressured and all time (ms) summed over subtasks, last poll.
  private final Map<String, double[]> last = new HashMap<>();
  private Duration took;
  private Duration downtime;
  private Instant until;

  private CatchUp(Instant requestedAt, Map<String, Double> arrival) {
    this.requestedAt = requestedAt;
    this.arrival = arrival;
  }

  /**
   * A watch on the rescale asked for at {@code requestedAt} from {@code estimate}'s window; empty
   * where a source's arrival was not measured.
   */
  static Optional<CatchUp> of(Estimate estimate, Instant requestedAt) {
    Map<String, Double> arrival = new LinkedHashMap<>();
    for (SourceDemand d : estimate.demands().values()) {
      if (d.basis() == SourceDemand.Basis.BACKLOG_HIDDEN || !(d.currentRate() >= 0)) {
        return Optional.empty(); // a step above what was read, not what arrived
      }
      arrival.put(d.vertexId(), d.currentRate());
    }
    return arrival.isEmpty() ? Optional.empty() : Optional.of(new CatchUp(requestedAt, arrival));
  }

  /**
   * The rescale applied: {@code took} from request to running, the job down at most {@code
   * downtime}; the watch ends at {@code until}.
   */
  void applied(Duration took, Duration downtime, Instant until) {
    this.took = took;
    this.downtime = downtime;
    this.until = until;
  }

  boolean isApplied() {
    return took != null;
  }

  /** How long the rescale has taken so far at {@code now}, at least request to running. */
  Duration soFar(Instant now) {
    Duration since = Duration.between(requestedAt, now);
    return since.compareTo(took) > 0 ? since : took;
  }

  /**
   * How long the rescale took to be caught up with, once {@code sample} shows it or the watch is
   * over (request to running then: nothing longer was seen); empty while the job may be behind.
   */
  Optional<Duration> take(JobSample sample, Instant now) {
    if (now.isAfter(until)) {
      return Optional.of(took);
    }
    if (sample.runningSince().isBefore(requestedAt)) {
      return Optional.empty(); // counters of the job before the rescale
    }
    double down = downtime.toMillis() / 1000.0;
    boolean caughtUp = true;
    for (Map.Entry<String, Double> a : arrival.entrySet()) {
      Optional<double[]> reading = totals(sample, a.getKey());
      if (reading.isEmpty()) {
        return Optional.empty();
      }
      double[] t = reading.get();
      // Every source's reading is kept, even once one is seen behind: the next poll's interval
      // starts here for all of them.
      double[] before = last.put(a.getKey(), t);
      // As the window reads a source: what it read, or what it emitted where reads are not counted.
      double read = t[0] > 0 ? t[0] : t[1];
      double elapsed = before == null ? 0 : t[3] - before[3];
      caughtUp &=
          read >= a.getValue() * down
              && elapsed > 0
              && (t[2] - before[2]) / elapsed < SubtaskShares.SATURATED_BUSY;
    }
    return caughtUp ? Optional.of(soFar(sample.time())) : Optional.empty();
  }

  /** Records in, records out, busy + back-pressured ms, all ms: summed over the subtasks. */
  private static Optional<double[]> totals(JobSample sample, String vertexId) {
    Optional<VertexSample> v = sample.vertex(vertexId);
    if (v.isEmpty()) {
      return Optional.empty();
    }
    double[] t = new double[4];
    for (SubtaskSample s : v.get().subtasks()) {
      for (Counter c : Counter.values()) {
        if (!s.has(c)) {
          return Optional.empty();
        }
      }
      double held = s.value(Counter.BUSY_TIME_MS) + s.value(Counter.BACK_PRESSURED_TIME_MS);
      t[0] += s.value(Counter.RECORDS_IN);
      t[1] += s.value(Counter.RECORDS_OUT);
      t[2] += held;
      t[3] += held + s.value(Counter.IDLE_TIME_MS);
    }
    return Optional.of(t);
  }
}
