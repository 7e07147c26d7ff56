package io.ds2.model.scaler;

import io.ds2.model.graph.JobGraph;
import io.ds2.model.window.JobSample;
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

  /** One poll of every vertex of {@code graph}. */
  JobSample sample(JobGraph graph);

  /** How often the source's metrics refresh, where it knows (Flink's metric store interval). */
  default Optional<Duration> metricRefresh() {
    return Optional.empty();
  }
}
