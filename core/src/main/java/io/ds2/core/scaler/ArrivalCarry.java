package io.ds2.core.scaler;

import io.ds2.core.estimate.DemandEstimator;
import io.ds2.core.window.Backlog;
import io.ds2.core.window.ObservationWindow;
import io.ds2.core.window.VertexObservation;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Carries a source's arrival rate across a restart of the job (a rescale) into the first windows of
 * the new run.
 *
 * <p>Records arrive in the topic whatever the job does, but the source's counters and lag gauge
 * start over with the job, so the first windows of a run have fewer readings of their own run to
 * fit the arrival over than later ones (up to three windows). Alone, while the source catches up
 * behind a lag gauge that is seconds stale, the first window read up to 9 % off the topic's rate on
 * the Kafka suite (420/s and 389/s for 400, 530/s for 487.5): enough to add instances the next
 * window took back. So while a run's own fit is shorter than three windows, the last fit before the
 * restart fills the rest, where the two saw the same load — apart by no more than a tenth of the
 * larger rate — as a mean weighted by the seconds each covers. Unlike the test for a load change
 * inside a window, the gauge's noise widens nothing here: right after a restart it can be large (a
 * doubled load read within it on the Kafka step-up), and where in doubt the run's own rate is kept.
 * A load change across the restart (the reason for many a rescale) keeps the run's own rate, and so
 * does a window whose halves already disagree.
 */
final class ArrivalCarry {
  /** A source's fitted arrival. */
  private record Fitted(double rate, double seconds, Instant end, Run run) {}

  /** Which run of the job a window belongs to. */
  record Run(Instant runningSince, OptionalLong restarts) {}

  /** Each source's last fit, of whichever run. */
  private final Map<String, Fitted> last = new HashMap<>();

  /** Each source's last fit before the current run started. */
  private final Map<String, Fitted> beforeRestart = new HashMap<>();

  private final Duration maxAge;
  private final double maxSeconds;

  /**
   * @param maxAge how long before the first window of a run the earlier run's last fit may have
   *     ended (a rescale and the warm-up after it)
   * @param maxSeconds the seconds an arrival is fitted over at most (three windows, as in a run)
   */
  ArrivalCarry(Duration maxAge, double maxSeconds) {
    this.maxAge = maxAge;
    this.maxSeconds = maxSeconds;
  }

  /** The window with the earlier run's arrival taken in where it applies; remembers its own. */
  ObservationWindow apply(ObservationWindow w, Run run) {
    Map<String, VertexObservation> carried = null;
    for (VertexObservation o : w.vertices().values()) {
      if (o.backlog().isEmpty()) {
        continue;
      }
      String id = o.vertexId();
      Fitted previous = last.get(id);
      if (previous != null && !previous.run().equals(run)) {
        // The first window of a new run: the last fit of the old one, if recent, fills in.
        if (previous.end().plus(maxAge).isBefore(w.start())) {
          beforeRestart.remove(id);
        } else {
          beforeRestart.put(id, previous);
        }
      }
      Backlog b = o.backlog().get();
      Fitted before = beforeRestart.get(id);
      double room = maxSeconds - b.arrivalSpanSeconds();
      if (before != null && !before.run().equals(run) && room > 0 && sameLoad(before, b)) {
        b = b.withEarlierRun(before.rate(), Math.min(room, before.seconds()));
        if (carried == null) {
          carried = new LinkedHashMap<>(w.vertices());
        }
        carried.put(id, with(o, b));
      }
      last.put(id, new Fitted(b.arrivalRate(), b.arrivalSpanSeconds(), w.end(), run));
    }
    return carried == null ? w : new ObservationWindow(w.start(), w.end(), carried);
  }

  private static boolean sameLoad(Fitted before, Backlog b) {
    if (DemandEstimator.shift(b).isPresent()) {
      return false;
    }
    double gap = Math.abs(b.arrivalRate() - before.rate());
    double larger = Math.max(Math.abs(b.arrivalRate()), Math.abs(before.rate()));
    return gap <= Backlog.STEADY_TOLERANCE * larger;
  }

  private static VertexObservation with(VertexObservation o, Backlog b) {
    return new VertexObservation(
        o.vertexId(),
        o.parallelism(),
        o.seconds(),
        o.timeBase(),
        o.recordsIn(),
        o.recordsOut(),
        o.busyTimeMs(),
        o.idleTimeMs(),
        o.backPressuredTimeMs(),
        o.subtaskDeltas(),
        Optional.of(b),
        o.splits(),
        o.recordAge());
  }
}
