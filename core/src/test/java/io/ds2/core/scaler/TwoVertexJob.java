package io.ds2.core.scaler;

import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The scaler tests' job: Source -> Work, 300 records/s arrive, Work takes 10 ms a record (so one
 * instance runs flat out at 100/s and it needs 3), polled at any time since {@link #T0}.
 */
final class TwoVertexJob {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source", 128), new Vertex("w", "Work", 128)),
          List.of(new Edge("s", "w", "REBALANCE")));

  private TwoVertexJob() {}

  /**
   * One poll at {@code now}.
   *
   * @param work Work's parallelism
   * @param restarts the job's {@code numRestarts}
   */
  static JobSample sample(Instant now, String state, int work, long restarts) {
    double t = Duration.between(T0, now).toMillis() / 1000.0 + 100;
    return new JobSample(
        now,
        state,
        T0.minusSeconds(100),
        OptionalLong.of(restarts),
        Map.of(
            "s",
            new VertexSample(
                "s",
                "RUNNING",
                1,
                List.of(SubtaskSample.of(0, 100 * t, 100 * t, 0, 0, 1000 * t)),
                OptionalDouble.of(200 * t)),
            "w",
            new VertexSample(
                "w",
                "RUNNING",
                work,
                List.of(SubtaskSample.of(0, 100 * t, 100 * t, 1000 * t, 0, 0)),
                OptionalDouble.empty())));
  }
}
