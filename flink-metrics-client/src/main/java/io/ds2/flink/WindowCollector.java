package io.ds2.flink;

import io.ds2.flink.FlinkRestException.Kind;
import io.ds2.model.graph.JobGraph;
import io.ds2.model.options.Ds2Options;
import io.ds2.model.window.JobSample;
import io.ds2.model.window.ObservationWindow;
import io.ds2.model.window.WindowBuilder;
import io.ds2.model.window.WindowProblem;
import io.ds2.model.window.WindowResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Polls a job until a clean observation window is complete. Restarts, non-running states and
 * missing metrics drop what was collected and start over; terminal job states end the wait.
 *
 * <p>The polls of the last {@value #LEAD_IN_WINDOWS} windows are kept as the next window's lead-in:
 * a source's arrival rate is fitted over them too while the load holds (a lagging Kafka source's
 * gauge is too noisy for one window; {@link WindowBuilder#build(JobGraph, List, List)}). A drop
 * clears them; polls of an earlier run are ignored by the builder.
 */
public final class WindowCollector {

  /** Told about progress while a window fills; all calls come from the collecting thread. */
  public interface Listener {
    void waiting(Duration collected, Duration wanted, String status);

    /** The samples so far were dropped and collection starts again. */
    void samplesDropped(WindowProblem problem, String detail);
  }

  /** Pauses between polls; injectable so tests and the loop can stop it. */
  @FunctionalInterface
  public interface Sleeper {
    /** The real one: sleeps the calling thread (interruptibly). */
    Sleeper SYSTEM = d -> Thread.sleep(d.toMillis());

    void sleep(Duration d) throws InterruptedException;
  }

  private final MetricSource sampler;
  private final WindowBuilder builder;
  private final Clock clock;
  private final Sleeper sleeper;
  private final Duration window;
  private final Duration sampleInterval;
  private final List<JobSample> leadIn = new ArrayList<>();

  /** Windows of polls a source's arrival rate may look back over, besides its own. */
  static final int LEAD_IN_WINDOWS = 2;

  public WindowCollector(
      MetricSource sampler,
      Clock clock,
      Sleeper sleeper,
      Duration window,
      Duration warmUp,
      Duration sampleInterval) {
    this.sampler = sampler;
    this.builder = new WindowBuilder(window, warmUp);
    this.clock = clock;
    this.sleeper = sleeper;
    this.window = window;
    this.sampleInterval = sampleInterval;
  }

  /** A collector on the system clock, sleeping between polls, with the windows of {@code o}. */
  public static WindowCollector live(MetricSource sampler, Ds2Options o) {
    return new WindowCollector(
        sampler, Clock.systemUTC(), Sleeper.SYSTEM, o.window(), o.warmUp(), o.sampleInterval());
  }

  /**
   * The longest a window may take: a warm-up and two windows (so one restart inside is survivable)
   * plus a few polls of slack. Bounded, so broken metrics end in an error.
   */
  public static Duration maxWait(Ds2Options o) {
    return o.warmUp().plus(o.window().multipliedBy(2)).plus(o.sampleInterval().multipliedBy(10));
  }

  /**
   * @throws FlinkRestException METRICS_UNAVAILABLE if no clean window forms within {@code maxWait},
   *     JOB_NOT_RUNNING if the job ends, or any REST failure
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  public ObservationWindow collect(JobGraph graph, Duration maxWait, Listener listener)
      throws InterruptedException {
    Instant deadline = clock.instant().plus(maxWait);
    List<JobSample> samples = new ArrayList<>();
    String lastProblem = "no samples yet";
    while (true) {
      // Fixed rate: the next poll is due an interval after this one started, so time spent in the
      // poll (REST calls, waiting for Flink's metric refresh) does not stretch the cadence.
      Instant pollStarted = clock.instant();
      JobSample s = sampler.sample(graph);
      if (JobStates.TERMINAL.contains(s.jobState())) {
        throw new FlinkRestException(
            Kind.JOB_NOT_RUNNING, "job became " + s.jobState() + " while collecting metrics");
      }
      samples.add(s);
      WindowResult r = builder.build(graph, leadIn, samples);
      if (r instanceof WindowResult.Ready ready) {
        keepAsLeadIn(samples);
        return ready.window();
      }
      WindowResult.NotReady notReady = (WindowResult.NotReady) r;
      lastProblem = notReady.detail();
      if (notReady.problem().invalidatesSamples()) {
        listener.samplesDropped(notReady.problem(), notReady.detail());
        samples.clear();
        leadIn.clear();
      }
      Duration collected =
          samples.isEmpty() ? Duration.ZERO : Duration.between(samples.get(0).time(), s.time());
      listener.waiting(collected, window, notReady.detail());
      if (!clock.instant().plus(sampleInterval).isBefore(deadline)) {
        throw new FlinkRestException(
            Kind.METRICS_UNAVAILABLE,
            "no clean "
                + window.toSeconds()
                + " s metrics window within "
                + maxWait.toSeconds()
                + " s: "
                + lastProblem);
      }
      Duration untilNext = Duration.between(clock.instant(), pollStarted.plus(sampleInterval));
      if (!untilNext.isNegative() && !untilNext.isZero()) {
        sleeper.sleep(untilNext);
      }
    }
  }

  /** Keeps the polls of the last windows, up to {@value #LEAD_IN_WINDOWS} windows' time back. */
  private void keepAsLeadIn(List<JobSample> window) {
    leadIn.addAll(window);
    Instant from =
        window.get(window.size() - 1).time().minus(this.window.multipliedBy(LEAD_IN_WINDOWS));
    leadIn.removeIf(s -> s.time().isBefore(from));
  }
}
