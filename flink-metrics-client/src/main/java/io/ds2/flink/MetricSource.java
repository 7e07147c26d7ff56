package io.ds2.flink;

import io.ds2.model.graph.JobGraph;
import io.ds2.model.window.JobSample;
import java.time.Duration;
import java.util.Optional;

/**
 * Where a job's topology and raw samples come from: Flink's REST API live ({@link JobSampler}), or
 * a recording replayed offline. The window, model and policy code downstream is the same for both.
 */
public interface MetricSource {
  String jobId();

  /** The job's identity and dataflow graph as of now. */
  JobTopology topology();

  /**
   * One poll of every vertex of {@code graph}.
   *
   * @throws FlinkRestException METRICS_UNAVAILABLE if a vertex of {@code graph} is gone (the graph
   *     changed), or any REST failure
   */
  JobSample sample(JobGraph graph);

  /** How often the source's metrics refresh, where it knows (Flink's metric store interval). */
  default Optional<Duration> metricRefresh() {
    return Optional.empty();
  }
}
