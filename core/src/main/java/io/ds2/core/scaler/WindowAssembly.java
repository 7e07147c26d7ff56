package io.ds2.core.scaler;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.ObservationWindow;
import io.ds2.core.window.WindowBuilder;
import io.ds2.core.window.WindowProblem;
import io.ds2.core.window.WindowResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects one job's polls, one at a time, until a clean observation window is complete. A restart,
 * a job or vertex not running or a missing metric drops what was collected and starts over; a
 * window that does not form within {@link #maxWait} ends the attempt.
 *
 * <p>The polls of the last {@value #LEAD_IN_WINDOWS} windows are kept as the next window's lead-in:
 * a source's arrival rate is fitted over them too while the load holds (a lagging Kafka source's
 * gauge is too noisy for one window; {@link WindowBuilder#build(JobGraph, List, List)}). A drop
 * clears them; polls of an earlier run are ignored by the builder, but a run's first windows take
 * in the arrival fitted before the restart where the load held ({@link ArrivalCarry}).
 */
public final class WindowAssembly {
  /** Windows of polls a source's arrival rate may look back over, besides its own. */
  static final int LEAD_IN_WINDOWS = 2;

  /** What one poll did to the window being assembled. */
  public sealed interface Progress {}

  /** The window is complete. */
  public record Ready(ObservationWindow window) implements Progress {}

  /**
   * Not yet.
   *
   * @param dropped the polls so far were dropped for this problem, if any
   */
  public record Filling(Duration collected, String status, WindowProblem dropped, String detail)
      implements Progress {}

  /** No clean window formed within the attempt's time; the next attempt starts afresh. */
  public record TimedOut(String message) implements Progress {}

  private final WindowBuilder builder;
  private final Duration window;
  private final Duration sampleInterval;
  private final Duration maxWait;
  private final List<JobSample> samples = new ArrayList<>();
  private final List<JobSample> leadIn = new ArrayList<>();
  private final ArrivalCarry carry;
  private Instant deadline;

  public WindowAssembly(Ds2Options o) {
    // A restart's backlog is waited out for as long as a rescale may take to show in the job.
    this.builder = new WindowBuilder(o.window(), o.warmUp(), o.rescaleTimeout());
    this.window = o.window();
    this.sampleInterval = o.sampleInterval();
    this.maxWait = maxWait(o);
    this.carry =
        new ArrivalCarry(
            o.rescaleTimeout().plus(maxWait),
            (LEAD_IN_WINDOWS + 1) * o.window().toMillis() / 1000.0);
  }

  /**
   * The longest a window may take: a warm-up and two windows (so one restart inside is survivable)
   * plus a few polls of slack. Bounded, so broken metrics end in an error.
   */
  public static Duration maxWait(Ds2Options o) {
    return o.warmUp().plus(o.window().multipliedBy(2)).plus(o.sampleInterval().multipliedBy(10));
  }

  /** Starts a new attempt: polls not yet made into a window are dropped, the lead-in kept. */
  public void begin(Instant now) {
    samples.clear();
    deadline = now.plus(maxWait);
  }

  public boolean started() {
    return deadline != null;
  }

  /** Adds one poll taken at {@code now}. */
  public Progress add(JobGraph graph, JobSample s, Instant now) {
    samples.add(s);
    WindowResult r = builder.build(graph, leadIn, samples);
    if (r instanceof WindowResult.Ready ready) {
      JobSample last = samples.get(samples.size() - 1);
      keepAsLeadIn();
      samples.clear();
      deadline = null;
      return new Ready(
          carry.apply(ready.window(), new ArrivalCarry.Run(last.runningSince(), last.restarts())));
    }
    WindowResult.NotReady notReady = (WindowResult.NotReady) r;
    if (notReady.problem() == WindowProblem.CATCHING_UP) {
      // Bounded by the builder (a rescale timeout after the restart): the attempt starts then.
      deadline = now.plus(maxWait);
    }
    WindowProblem dropped = null;
    if (notReady.problem().invalidatesSamples()) {
      dropped = notReady.problem();
      samples.clear();
      leadIn.clear();
    }
    if (!now.plus(sampleInterval).isBefore(deadline)) {
      samples.clear();
      deadline = null;
      return new TimedOut(
          "no clean "
              + window.toSeconds()
              + " s metrics window within "
              + maxWait.toSeconds()
              + " s: "
              + notReady.detail());
    }
    Duration collected =
        samples.isEmpty() ? Duration.ZERO : Duration.between(samples.get(0).time(), s.time());
    return new Filling(collected, notReady.detail(), dropped, notReady.detail());
  }

  /** Keeps the polls of the last windows, up to {@value #LEAD_IN_WINDOWS} windows' time back. */
  private void keepAsLeadIn() {
    leadIn.addAll(samples);
    Instant from =
        samples.get(samples.size() - 1).time().minus(window.multipliedBy(LEAD_IN_WINDOWS));
    leadIn.removeIf(x -> x.time().isBefore(from));
  }
}
