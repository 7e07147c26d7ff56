package io.ds2.controller.whatif;

import io.ds2.controller.recording.RecordSource;
import io.ds2.controller.recording.Recorded;
import io.ds2.flink.FlinkRestException;
import io.ds2.model.graph.JobGraph;
import io.ds2.model.graph.Vertex;
import io.ds2.model.scaler.JobTopology;
import io.ds2.model.scaler.MetricSource;
import io.ds2.model.window.JobSample;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A recording played back as if it were Flink's REST API: each {@link #sample} returns the next
 * recorded poll and moves the replay clock to its time; topology records change what {@link
 * #topology} returns. The window, model and policy code that consumes it is the live code.
 */
final class RecordingReplay implements MetricSource {
  private final RecordSource records;
  private final ReplayClock clock;
  private final Consumer<Recorded> observer;
  private JobTopology topology;
  private Recorded peeked;
  private long samples;

  /**
   * @param observer sees every record as it is replayed (events for the report, progress)
   */
  RecordingReplay(RecordSource records, Consumer<Recorded> observer) {
    this.records = records;
    this.clock = new ReplayClock(records.header().createdAt());
    this.observer = observer;
  }

  ReplayClock clock() {
    return clock;
  }

  long samples() {
    return samples;
  }

  @Override
  public String jobId() {
    return records.header().jobId();
  }

  /**
   * The latest topology. Before the first one, reads ahead to it and peeks at the record after it,
   * so that the clock starts at the first sample's time (as a live loop starts just before its
   * first poll).
   */
  @Override
  public JobTopology topology() {
    while (topology == null) {
      consume(read());
      if (topology != null) {
        peeked = records.next().orElse(null);
        if (peeked instanceof Recorded.Sample s) {
          clock.advanceTo(s.sample().time());
        }
      }
    }
    return topology;
  }

  private Recorded read() {
    if (peeked != null) {
      Recorded r = peeked;
      peeked = null;
      return r;
    }
    return records.next().orElseThrow(EndOfRecording::new);
  }

  @Override
  public JobSample sample(JobGraph graph) {
    while (true) {
      Recorded r = read();
      consume(r);
      if (r instanceof Recorded.Sample s) {
        JobSample sample = s.sample();
        if ("RUNNING".equals(sample.jobState())) {
          Optional<Vertex> gone =
              graph.topologicalOrder().stream()
                  .filter(v -> sample.vertex(v.id()).isEmpty())
                  .findFirst();
          if (gone.isPresent()) {
            throw new FlinkRestException(
                FlinkRestException.Kind.METRICS_UNAVAILABLE,
                "vertex "
                    + gone.get().name()
                    + " is no longer part of the recorded job at "
                    + sample.time()
                    + ": the job graph changed");
          }
        }
        return sample;
      }
    }
  }

  private void consume(Recorded r) {
    if (r instanceof Recorded.Topology t) {
      topology = t.topology();
    } else if (r instanceof Recorded.Sample s) {
      clock.advanceTo(s.sample().time());
      samples++;
    }
    observer.accept(r);
  }
}
