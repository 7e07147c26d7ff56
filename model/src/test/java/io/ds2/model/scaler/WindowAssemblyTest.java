package io.ds2.model.scaler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.ds2.model.graph.Edge;
import io.ds2.model.graph.JobGraph;
import io.ds2.model.graph.Vertex;
import io.ds2.model.options.Ds2Options;
import io.ds2.model.window.Backlog;
import io.ds2.model.window.JobSample;
import io.ds2.model.window.ObservationWindow;
import io.ds2.model.window.SubtaskSample;
import io.ds2.model.window.VertexSample;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The assembly hands each window the polls of the windows before it in the same run. */
class WindowAssemblyTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source", 128), new Vertex("a", "Work", 128)),
          List.of(new Edge("s", "a", "FORWARD")));

  /** A job polled once a second. */
  private static final class Job {
    Instant now = T0;
    Instant runningSince = T0.minusSeconds(100);

    JobSample sample() {
      double t = Duration.between(runningSince, now).toMillis() / 1000.0;
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
      return new JobSample(now, "RUNNING", runningSince, OptionalLong.of(0), v);
    }
  }

  /** Polls every second until a window is ready; the next window starts at the last poll. */
  private static ObservationWindow collect(WindowAssembly assembly, Job job) {
    assembly.begin(job.now);
    while (true) {
      WindowAssembly.Progress p = assembly.add(GRAPH, job.sample(), job.now);
      if (p instanceof WindowAssembly.Ready r) {
        return r.window();
      }
      assertInstanceOf(WindowAssembly.Filling.class, p);
      job.now = job.now.plusSeconds(1);
    }
  }

  private static Backlog backlog(ObservationWindow w) {
    return w.vertex("s").orElseThrow().backlog().orElseThrow();
  }

  @Test
  void aSourcesArrivalLooksBackTwoWindowsOfTheSameRunAndNotPastARestart() {
    Job job = new Job();
    WindowAssembly collector =
        new WindowAssembly(
            Ds2Options.fromMap(Map.of("window", "10s", "warm-up", "0s", "sample-interval", "1s")));
    Backlog first = backlog(collect(collector, job));
    assertEquals(10, first.arrivalSpanSeconds(), 1e-9);
    assertEquals(150, first.arrivalRate(), 1e-9);
    Backlog second = backlog(collect(collector, job));
    assertEquals(20, second.arrivalSpanSeconds(), 1e-9); // its own 10 s and the first window's
    Backlog third = backlog(collect(collector, job));
    assertEquals(30, third.arrivalSpanSeconds(), 1e-9);
    Backlog fourth = backlog(collect(collector, job));
    assertEquals(30, fourth.arrivalSpanSeconds(), 1e-9); // two windows back at most
    assertEquals(150, fourth.arrivalRate(), 1e-9);
    // A rescale: the job runs anew; nothing from before it is a lead-in.
    job.runningSince = job.now;
    job.now = job.now.plusSeconds(1);
    Backlog afterRestart = backlog(collect(collector, job));
    assertEquals(10, afterRestart.arrivalSpanSeconds(), 1e-9);
  }
}
