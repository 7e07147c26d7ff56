package io.ds2.core.scaler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.window.Backlog;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.ObservationWindow;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The assembly hands each window the polls of the windows before it in the same run, and the first
 * window of a run the arrival fitted before the restart where the load held.
 */
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
    // Records emitted and lag growth per second: the arrival is their sum.
    double emitted = 100;
    double lagGrowth = 50;
    // How old the source's last record was at the run's start (ms; none if NaN), and how fast that
    // falls (ms a second) down to 1 s.
    double ageAtStart = Double.NaN;
    double ageFall = 0;

    JobSample sample() {
      double t = Duration.between(runningSince, now).toMillis() / 1000.0;
      Map<String, VertexSample> v = new LinkedHashMap<>();
      v.put(
          "s",
          new VertexSample(
              "s",
              "RUNNING",
              1,
              List.of(SubtaskSample.of(0, 0, emitted * t, 0, 1000 * t, 0)),
              OptionalDouble.of(lagGrowth * t),
              Optional.empty(),
              List.of(),
              Double.isNaN(ageAtStart)
                  ? List.of()
                  : List.of(OptionalDouble.of(Math.max(1000, ageAtStart - ageFall * t)))));
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
    WindowAssembly collector = tenSecondWindows();
    Backlog first = backlog(collect(collector, job));
    assertEquals(10, first.arrivalSpanSeconds(), 1e-9);
    assertEquals(150, first.arrivalRate(), 1e-9);
    assertEquals(
        20, backlog(collect(collector, job)).arrivalSpanSeconds(), 1e-9); // and the first window's
    assertEquals(30, backlog(collect(collector, job)).arrivalSpanSeconds(), 1e-9);
    Backlog fourth = backlog(collect(collector, job));
    assertEquals(30, fourth.arrivalSpanSeconds(), 1e-9); // two windows back at most
    assertEquals(150, fourth.arrivalRate(), 1e-9);
    // A rescale: the job runs anew; none of its polls from before is a lead-in, but the same load
    // arrives, so the fit before the restart fills its first windows' fits up to 30 s.
    restart(job);
    Backlog afterRestart = backlog(collect(collector, job));
    assertEquals(30, afterRestart.arrivalSpanSeconds(), 1e-9);
    assertEquals(20, afterRestart.earlierRunSeconds(), 1e-9);
    assertEquals(150, afterRestart.arrivalRate(), 1e-9);
    Backlog second = backlog(collect(collector, job));
    assertEquals(30, second.arrivalSpanSeconds(), 1e-9);
    assertEquals(10, second.earlierRunSeconds(), 1e-9); // 20 s of its own run now
    Backlog third = backlog(collect(collector, job));
    assertEquals(30, third.arrivalSpanSeconds(), 1e-9);
    assertEquals(0, third.earlierRunSeconds(), 1e-9); // its own run's three windows
  }

  private static void restart(Job job) {
    job.runningSince = job.now;
    job.now = job.now.plusSeconds(1);
  }

  private static WindowAssembly tenSecondWindows() {
    return new WindowAssembly(
        Ds2Options.fromMap(Map.of("window", "10s", "warm-up", "0s", "sample-interval", "1s")));
  }

  /**
   * The first window after a rescale read a few percent over the topic's rate on Kafka (a source
   * catching up behind a stale lag gauge): weighted with the 30 s fitted before, it reads closer.
   */
  @Test
  void theFirstWindowAfterARescaleLeansOnTheArrivalBeforeItWhereTheLoadHeld() {
    Job job = new Job();
    WindowAssembly collector = tenSecondWindows();
    for (int k = 0; k < 3; k++) {
      collect(collector, job); // 150/s, fitted over 30 s by the third window
    }
    restart(job);
    job.lagGrowth = 60; // reads 160/s: 6.7 % over
    Backlog b = backlog(collect(collector, job));
    assertEquals((160 * 10 + 150 * 20) / 30.0, b.arrivalRate(), 1e-9);
  }

  @Test
  void aLoadChangeAcrossTheRescaleKeepsTheNewWindowsOwnArrival() {
    Job job = new Job();
    WindowAssembly collector = tenSecondWindows();
    collect(collector, job);
    restart(job);
    job.emitted = 200; // 250/s: two thirds more
    Backlog b = backlog(collect(collector, job));
    assertEquals(250, b.arrivalRate(), 1e-9);
    assertEquals(10, b.arrivalSpanSeconds(), 1e-9);
    assertEquals(0, b.earlierRunSeconds(), 1e-9);
  }

  /**
   * A restart behind the source's heads (its records 40 s old, 0.5 s younger a second, its lag
   * gauge standing as at Kafka's default fetch) is waited out past the window's usual longest wait
   * (30 s here): the window starts once caught up.
   */
  @Test
  void aRestartsBacklogIsWaitedOutPastTheUsualLongestWait() {
    Job job = new Job();
    job.ageAtStart = 1000; // at its heads
    WindowAssembly collector = tenSecondWindows();
    collect(collector, job);
    restart(job);
    job.ageAtStart = 40_000;
    job.ageFall = 500;
    job.lagGrowth = 0;
    ObservationWindow w = collect(collector, job);
    assertEquals(job.runningSince.plusSeconds(70), w.start());
  }

  @Test
  void anArrivalFromLongBeforeTheRestartIsNotTakenIn() {
    Job job = new Job();
    WindowAssembly collector = tenSecondWindows();
    collect(collector, job);
    // Longer than a rescale timeout and a window's longest wait after the last fit.
    job.runningSince = job.now.plus(Duration.ofMinutes(10));
    job.now = job.runningSince.plusSeconds(1);
    Backlog b = backlog(collect(collector, job));
    assertEquals(10, b.arrivalSpanSeconds(), 1e-9);
    assertEquals(150, b.arrivalRate(), 1e-9);
  }
}
