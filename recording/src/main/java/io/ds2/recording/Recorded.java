package io.ds2.recording;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.window.JobSample;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** One line of a recording, as data (see {@link RecordingFormat} for the JSON). */
public sealed interface Recorded {
  /**
   * The first line: what was recorded, from where, and how.
   *
   * @param source the REST URL (or namespace/name) the samples came from
   * @param interval the time between polls the recorder aimed for
   * @param config settings worth keeping with the data (ds2 version, options), free-form
   */
  record Header(
      int version,
      Instant createdAt,
      String source,
      String jobId,
      String jobName,
      Optional<String> flinkVersion,
      Duration interval,
      Optional<Duration> metricRefresh,
      ObjectNode config)
      implements Recorded {
    /**
     * How often a recorded poll can hold new values: the poll interval, or Flink's metric refresh
     * interval where that is longer (polls in between repeat the last values).
     */
    public Duration cadence() {
      return metricRefresh.filter(r -> r.compareTo(interval) > 0).orElse(interval);
    }
  }

  /**
   * The job's graph and, where known, every vertex's parallelism; written at the start and again
   * after every change of either.
   */
  record Topology(Instant time, JobTopology topology, Map<String, Integer> parallelism)
      implements Recorded {
    public Topology {
      parallelism = Map.copyOf(parallelism);
    }
  }

  /** One poll of the job: raw counters and gauges as Flink reported them. */
  record Sample(JobSample sample) implements Recorded {}

  /**
   * Something that happened: a restart, a rescale requested or applied, a decision.
   *
   * @param details structured data (e.g. the decision as JSON); never parsed back from message
   */
  record Event(Instant time, String kind, String message, ObjectNode details) implements Recorded {}
}
