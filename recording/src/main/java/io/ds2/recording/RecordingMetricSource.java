package io.ds2.recording;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.MetricSource;
import io.ds2.core.window.JobSample;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Records what a live source returns, as it is returned: every sample, a topology record at the
 * start and whenever the graph or a parallelism changes, and a restart event whenever the job
 * (re)entered RUNNING. The loop reads through it unchanged.
 */
public final class RecordingMetricSource implements MetricSource {
  private final MetricSource live;
  private final RecordingWriter writer;
  private JobTopology current;
  private Optional<Recorded.Topology> written = Optional.empty();
  private Optional<Instant> runningSince = Optional.empty();

  /**
   * @param topology the job's topology as the caller just read it (so it is not read twice)
   */
  public RecordingMetricSource(MetricSource live, JobTopology topology, RecordingWriter writer) {
    this.live = live;
    this.current = topology;
    this.writer = writer;
  }

  @Override
  public String jobId() {
    return live.jobId();
  }

  @Override
  public JobTopology topology() {
    current = live.topology();
    return current;
  }

  @Override
  public Duration settle() {
    return live.settle();
  }

  @Override
  public JobSample sample(JobGraph graph) {
    JobSample s = live.sample(graph);
    if ("RUNNING".equals(s.jobState())) {
      Map<String, Integer> parallelism = new LinkedHashMap<>();
      s.vertices().values().forEach(v -> parallelism.put(v.vertexId(), v.parallelism()));
      if (written.isEmpty() || changed(written.get(), parallelism)) {
        Recorded.Topology t = new Recorded.Topology(s.time(), current, parallelism);
        writer.write(t);
        written = Optional.of(t);
      }
      if (runningSince.isPresent() && !runningSince.get().equals(s.runningSince())) {
        writer.write(
            new Recorded.Event(
                s.time(),
                "restart",
                "job (re)entered RUNNING at " + s.runningSince() + " (restart or rescale)",
                RecordingFormat.MAPPER
                    .createObjectNode()
                    .put("runningSince", s.runningSince().toString())
                    .put("numRestarts", s.restarts().isPresent() ? s.restarts().getAsLong() : -1)));
      }
      runningSince = Optional.of(s.runningSince());
    }
    writer.write(new Recorded.Sample(s));
    return s;
  }

  private boolean changed(Recorded.Topology last, Map<String, Integer> parallelism) {
    JobGraph a = last.topology().graph();
    JobGraph b = current.graph();
    return !last.parallelism().equals(parallelism)
        || !a.topologicalOrder().equals(b.topologicalOrder())
        || !a.edges().equals(b.edges());
  }
}
