package io.ds2.core.scaler;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.window.JobSample;
import java.time.Duration;
import java.util.Optional;

/**
 * Where a job's topology and raw samples come from: Flink's REST API live, or a recording replayed
 * offline. The window, model and policy code downstream is the same for both. Failures are the
 * implementation's unchecked exceptions; the driver tells a job that is gone from one that may
 * pass.
 */
public interface MetricSource {
  String jobId();

  /** The job's identity and dataflow graph as of now. */
  JobTopology topology();

  /** One poll of every vertex of {@code graph}; waits first if the source needs to settle. */
  JobSample sample(JobGraph graph);

  /**
   * Gets the next {@link #sample} ready without blocking: how long until it may be taken without
   * waiting, {@link Duration#ZERO} when it may be taken now. A driver sharing its threads among
   * many jobs asks this first and comes back after the answer (Flink's metric store refreshes for
   * up to a second after a request starts it: slept in {@code sample}, that second would hold a
   * shared thread). Calling it again before the sample only says how much of the wait is left.
   */
  default Duration settle() {
    return Duration.ZERO;
  }

  /** How often the source's metrics refresh, where it knows (Flink's metric store interval). */
  default Optional<Duration> metricRefresh() {
    return Optional.empty();
  }
}
