package io.ds2.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.model.graph.Edge;
import io.ds2.model.graph.JobGraph;
import io.ds2.model.graph.Vertex;
import io.ds2.model.window.Backlog;
import io.ds2.model.window.JobSample;
import io.ds2.model.window.ObservationWindow;
import io.ds2.model.window.SubtaskSample;
import io.ds2.model.window.VertexSample;
import io.ds2.model.window.WindowProblem;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The collector hands each window the polls of the windows before it in the same run. */
class WindowCollectorTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source", 128), new Vertex("a", "Work", 128)),
          List.of(new Edge("s", "a", "FORWARD")));

  /** A job polled once a second on a clock the collector's sleeps advance. */
  private static final class Job implements MetricSource {
    final Instant[] now = {T0};
    Instant runningSince = T0.minusSeconds(100);

    @Override
    public String jobId() {
      return "j";
    }

    @Override
    public JobTopology topology() {
      return new JobTopology("j", "job", GRAPH);
    }

    @Override
    public JobSample sample(JobGraph graph) {
      double t = Duration.between(runningSince, now[0]).toMillis() / 1000.0;
      Map<String, VertexSample> v = new LinkedHashMap<>();
      v.put(
          "s",
          new VertexSample(
              "s",
              "RUNNING",
              1,
              List.of(SubtaskSample.of(0, 0, 100 * t, 0, 1000 * t, 0)),
              OptionalDouble.of(50 * t)));
      v.put(
          "a",
          new VertexSample(
              "a",
              "RUNNING",
              1,
              List.of(SubtaskSample.of(0, 100 * t, 100 * t, 500 * t, 500 * t, 0)),
              OptionalDouble.empty()));
      return new JobSample(now[0], "RUNNING", runningSince, OptionalLong.of(0), v);
    }

    Clock clock() {
      return new Clock() {
        @Override
        public java.time.ZoneId getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return now[0];
        }
      };
    }
  }

  private static final WindowCollector.Listener QUIET =
      new WindowCollector.Listener() {
        @Override
        public void waiting(Duration collected, Duration wanted, String status) {}

        @Override
        public void samplesDropped(WindowProblem problem, String detail) {}
      };

  private static Backlog backlog(ObservationWindow w) {
    return w.vertex("s").orElseThrow().backlog().orElseThrow();
  }

  @Test
  void aSourcesArrivalLooksBackTwoWindowsOfTheSameRunAndNotPastARestart() throws Exception {
    Job job = new Job();
    WindowCollector collector =
        new WindowCollector(
            job,
            job.clock(),
            d -> job.now[0] = job.now[0].plus(d),
            Duration.ofSeconds(10),
            Duration.ZERO,
            Duration.ofSeconds(1));
    Duration wait = Duration.ofMinutes(1);
    Backlog first = backlog(collector.collect(GRAPH, wait, QUIET));
    assertEquals(10, first.arrivalSpanSeconds(), 1e-9);
    assertEquals(150, first.arrivalRate(), 1e-9);
    Backlog second = backlog(collector.collect(GRAPH, wait, QUIET));
    assertEquals(20, second.arrivalSpanSeconds(), 1e-9); // its own 10 s and the first window's
    Backlog third = backlog(collector.collect(GRAPH, wait, QUIET));
    assertEquals(30, third.arrivalSpanSeconds(), 1e-9);
    Backlog fourth = backlog(collector.collect(GRAPH, wait, QUIET));
    assertEquals(30, fourth.arrivalSpanSeconds(), 1e-9); // two windows back at most
    assertEquals(150, fourth.arrivalRate(), 1e-9);
    // A rescale: the job runs anew; nothing from before it is a lead-in.
    job.runningSince = job.now[0];
    job.now[0] = job.now[0].plusSeconds(1);
    Backlog afterRestart = backlog(collector.collect(GRAPH, wait, QUIET));
    assertEquals(10, afterRestart.arrivalSpanSeconds(), 1e-9);
  }
}
