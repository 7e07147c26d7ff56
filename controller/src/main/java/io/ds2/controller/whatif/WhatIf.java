package io.ds2.controller.whatif;

import io.ds2.controller.loop.ControlLoop;
import io.ds2.controller.loop.LoopListener;
import io.ds2.controller.recording.RecordSource;
import io.ds2.controller.recording.Recorded;
import io.ds2.controller.recording.RecordingFormatException;
import io.ds2.model.estimate.DemandScenario;
import io.ds2.model.graph.JobGraph;
import io.ds2.model.options.Ds2Options;
import io.ds2.model.policy.Decision;
import io.ds2.model.policy.ScalingPolicy;
import io.ds2.model.scaler.Actuator;
import io.ds2.model.scaler.JobTopology;
import io.ds2.model.scaler.Mode;
import io.ds2.model.scaler.ScalerEvent;
import java.time.Instant;
import java.util.function.Function;

/**
 * Replays a recording through the live loop's code (window collector, DS2 model, policy) in dry-run
 * mode on recorded time: one decision per clean window, exactly what {@code ds2 run --dry-run}
 * would have printed had it watched the job then, at the scenario's demand.
 */
public final class WhatIf {
  /** Told about the replay as it goes; all calls come from the replaying thread. */
  public interface Listener {
    void decided(JobTopology topology, Decision decision);

    /** Something the live loop would have reported (no clean window, graph changed, ...). */
    void problem(Instant time, String message);

    /** Every record as it is replayed: samples for progress, events for the report. */
    void replayed(Recorded record);
  }

  /**
   * @param samples recorded polls replayed
   * @param decisions windows the policy decided on
   */
  public record Totals(long samples, long decisions, long problems, Instant from, Instant to) {}

  private WhatIf() {}

  /**
   * Replays {@code source} to its end.
   *
   * @param scenario the demand to size for, given the recording's first graph (to resolve names)
   * @throws RecordingFormatException on a bad line (unless the source skips them)
   * @throws InterruptedException if the thread is interrupted
   */
  public static Totals replay(
      RecordSource source,
      Ds2Options options,
      Function<JobGraph, DemandScenario> scenario,
      Listener listener)
      throws InterruptedException {
    Counter counter = new Counter(listener);
    RecordingReplay replay = new RecordingReplay(source, counter::replayed);
    DemandScenario demand;
    try {
      demand = scenario.apply(replay.topology().graph());
    } catch (EndOfRecording e) {
      throw new RecordingFormatException(
          source.describe() + ": no topology record: nothing to replay");
    }
    ControlLoop loop =
        new ControlLoop(
            replay,
            new ScalingPolicy(options),
            Actuator.unsupported("a replay cannot rescale"),
            Mode.DRY_RUN,
            demand,
            new Adapter(listener, replay, counter),
            d -> {},
            replay.clock());
    try {
      loop.run(() -> true, Long.MAX_VALUE);
    } catch (EndOfRecording e) {
      // The recording ended; a window in progress is not decided on (as live, if stopped).
    }
    return new Totals(
        replay.samples(), counter.decisions, counter.problems, counter.first, counter.last);
  }

  private static final class Counter {
    private final Listener listener;
    long decisions;
    long problems;
    Instant first;
    Instant last;

    Counter(Listener listener) {
      this.listener = listener;
    }

    void replayed(Recorded r) {
      if (r instanceof Recorded.Sample s) {
        first = first == null ? s.sample().time() : first;
        last = s.sample().time();
      }
      listener.replayed(r);
    }
  }

  private record Adapter(Listener listener, RecordingReplay replay, Counter counter)
      implements LoopListener {
    @Override
    public void decided(JobTopology t, Decision d, Mode mode) {
      counter.decisions++;
      listener.decided(t, d);
    }

    @Override
    public void problem(ScalerEvent.Problem p) {
      counter.problems++;
      listener.problem(replay.clock().instant(), p.text());
    }
  }
}
