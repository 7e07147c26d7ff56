package io.ds2.whatif;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.policy.SlotCapacity;
import io.ds2.core.scaler.JobScaler;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.ScalerAction;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.core.scaler.ScalerInput;
import io.ds2.core.scaler.Step;
import io.ds2.core.window.JobSample;
import io.ds2.loop.EventSink;
import io.ds2.recording.RecordSource;
import io.ds2.recording.Recorded;
import io.ds2.recording.RecordingFormatException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * Replays a recording through the live loop's core (window collector, DS2 model, policy) in dry-run
 * mode: a plain loop of steps over the recorded polls, each at its recorded time — one decision per
 * clean window, exactly what {@code ds2 run --dry-run} would have printed had it watched the job
 * then, at the scenario's demand. No clock moves and nothing sleeps; the recording's end is the
 * replay's.
 */
public final class WhatIf {
  /**
   * Told about the replay as it goes, from the replaying thread: the core's events as any sink is
   * told them (a problem happens at the time of the last replayed sample), and every record.
   */
  public interface Listener extends EventSink {
    /** Every record as it is replayed: samples for progress, events for the report. */
    void replayed(Recorded record);

    /** A listener made of a sink of the core's events and a consumer of the records. */
    static Listener of(EventSink sink, java.util.function.Consumer<Recorded> records) {
      return new Listener() {
        @Override
        public void on(JobTopology topology, ScalerEvent event) {
          sink.on(topology, event);
        }

        @Override
        public void replayed(Recorded record) {
          records.accept(record);
        }
      };
    }
  }

  /**
   * @param samples recorded polls replayed
   * @param decisions windows the policy decided on
   */
  public record Totals(long samples, long decisions, long problems, Instant from, Instant to) {}

  // Never used: a dry run asks for no rescale, so nothing is observed.
  private static final Duration NO_RESCALE_POLL = Duration.ofSeconds(1);

  private WhatIf() {}

  /**
   * Replays {@code source} to its end.
   *
   * @param scenario the demand to size for, given the recording's first graph (to resolve names)
   * @throws RecordingFormatException on a bad line (unless the source skips them), or a recording
   *     without a topology
   * @throws InterruptedException if the thread is interrupted
   */
  public static Totals replay(
      RecordSource source,
      Ds2Options options,
      Function<JobGraph, DemandScenario> scenario,
      Listener listener)
      throws InterruptedException {
    Records records = new Records(source, listener);
    JobTopology latest =
        records
            .firstTopology()
            .orElseThrow(
                () ->
                    new RecordingFormatException(
                        source.describe() + ": no topology record: nothing to replay"));
    JobScaler scaler =
        new JobScaler(
            new ScalingPolicy(options),
            scenario.apply(latest.graph()),
            Mode.DRY_RUN,
            NO_RESCALE_POLL);
    // As a live loop, which starts just before its first poll.
    Instant now = records.peekTime().orElse(source.header().createdAt());
    ScalerAction next = scaler.start(now).next();
    JobTopology inUse = null;
    long decisions = 0;
    long problems = 0;
    while (next instanceof ScalerAction.Sample poll) {
      if (Thread.interrupted()) {
        throw new InterruptedException("replay interrupted");
      }
      Optional<JobSample> sample = records.nextSample();
      if (sample.isEmpty()) {
        break; // a window in progress is not decided on (as live, if stopped)
      }
      // A new topology is taken when a window starts, as the live loop reads it.
      if (poll.freshTopology() || inUse == null) {
        inUse = records.latestTopology();
      }
      now = sample.get().time();
      Step step = scaler.step(input(inUse.graph(), sample.get()), now);
      for (ScalerEvent e : step.events()) {
        decisions += e instanceof ScalerEvent.Decided ? 1 : 0;
        problems += e instanceof ScalerEvent.Problem ? 1 : 0;
        listener.on(inUse, e);
      }
      next = step.next();
    }
    return new Totals(records.samples, decisions, problems, records.first, records.last);
  }

  /** The poll as the live loop would have taken it: a vertex the job no longer has fails it. */
  private static ScalerInput input(JobGraph graph, JobSample sample) {
    if ("RUNNING".equals(sample.jobState())) {
      Optional<Vertex> gone =
          graph.topologicalOrder().stream()
              .filter(v -> sample.vertex(v.id()).isEmpty())
              .findFirst();
      if (gone.isPresent()) {
        return new ScalerInput.SampleFailed(
            "vertex "
                + gone.get().name()
                + " is no longer part of the recorded job at "
                + sample.time()
                + ": the job graph changed");
      }
    }
    return new ScalerInput.Sampled(graph, sample, SlotCapacity.unknown());
  }

  /** The recording read one record at a time, each shown to the listener as it goes by. */
  private static final class Records {
    private final RecordSource source;
    private final Listener listener;
    private JobTopology topology;
    private Recorded peeked;
    long samples;
    Instant first;
    Instant last;

    Records(RecordSource source, Listener listener) {
      this.source = source;
      this.listener = listener;
    }

    /** Reads up to the first topology, and peeks at the record after it. */
    Optional<JobTopology> firstTopology() {
      while (topology == null) {
        Optional<Recorded> r = source.next();
        if (r.isEmpty()) {
          return Optional.empty();
        }
        consume(r.get());
      }
      peeked = source.next().orElse(null);
      return Optional.of(topology);
    }

    Optional<Instant> peekTime() {
      return peeked instanceof Recorded.Sample s
          ? Optional.of(s.sample().time())
          : Optional.empty();
    }

    JobTopology latestTopology() {
      return topology;
    }

    /** The next recorded poll, topologies on the way taken in; empty at the end. */
    Optional<JobSample> nextSample() {
      while (true) {
        Optional<Recorded> r;
        if (peeked != null) {
          r = Optional.of(peeked);
          peeked = null;
        } else {
          r = source.next();
        }
        if (r.isEmpty()) {
          return Optional.empty();
        }
        consume(r.get());
        if (r.get() instanceof Recorded.Sample s) {
          return Optional.of(s.sample());
        }
      }
    }

    private void consume(Recorded r) {
      if (r instanceof Recorded.Topology t) {
        topology = t.topology();
      } else if (r instanceof Recorded.Sample s) {
        samples++;
        first = first == null ? s.sample().time() : first;
        last = s.sample().time();
      }
      listener.replayed(r);
    }
  }
}
