package io.ds2.core.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Windows of back-pressured jobs: busy time is derived by Flink and falls when a stall is
 * accounted, which is no restart; records, idle and back-pressured time going down, or {@code
 * numRestarts} rising, are.
 */
class VertexWindowTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant SINCE = T0.minusSeconds(300);
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source: A", 128), new Vertex("a", "Parse", 128)),
          List.of(new Edge("s", "a", "REBALANCE")));
  private final WindowBuilder builder = new WindowBuilder(Duration.ofSeconds(10), Duration.ZERO);

  /** One reading of subtask 0 of each vertex: {records in, records out, busy, idle, bp}. */
  private static JobSample poll(int second, double[] source, double[] parse, long restarts) {
    Map<String, VertexSample> v = new LinkedHashMap<>();
    v.put("s", vertex("s", source, OptionalDouble.of(10.0 * second)));
    v.put("a", vertex("a", parse, OptionalDouble.empty()));
    return new JobSample(T0.plusSeconds(second), "RUNNING", SINCE, OptionalLong.of(restarts), v);
  }

  private static VertexSample vertex(String id, double[] c, OptionalDouble pending) {
    return new VertexSample(
        id, "RUNNING", 1, List.of(SubtaskSample.of(0, c[0], c[1], c[2], c[3], c[4])), pending);
  }

  /** The recording: the source's busy time goes 99, 169, 178, 162, 116, 138. */
  private static List<JobSample> backPressuredSource() {
    double[] busy = {99, 169, 178, 162, 116, 138};
    List<JobSample> samples = new ArrayList<>();
    for (int k = 0; k < busy.length; k++) {
      int t = 3 * k;
      double elapsed = 10_000 + 3000.0 * k;
      double[] source = {250.0 * t, 250.0 * t, busy[k], 50, elapsed - busy[k] - 50};
      double[] parse = {250.0 * t, 250.0 * t, elapsed - 100, 100, 0};
      samples.add(poll(t, source, parse, 0));
    }
    return samples;
  }

  @Test
  void busyTimeFallingWhileTheOtherCountersRiseIsAValidWindow() {
    ObservationWindow w =
        assertInstanceOf(WindowResult.Ready.class, builder.build(GRAPH, backPressuredSource()))
            .window();
    VertexObservation s = w.vertex("s").orElseThrow();
    assertEquals(15, s.seconds(), 1e-9);
    assertEquals(250, s.observedOutputRate(), 1e-9);
    double busy = s.busyTimeMs().getAsDouble();
    assertTrue(busy >= 0 && busy <= 15_000, "clamped to [0, elapsed]: " + busy);
    assertEquals(250, w.vertex("a").orElseThrow().observedInputRate(), 1e-9);
  }

  @Test
  void recordsGoingDownIsARestart() {
    List<JobSample> samples = backPressuredSource();
    JobSample last = samples.get(samples.size() - 1);
    double[] reset = {12, 12, 5, 1, 1};
    double[] parse = {3750, 3750, 24_900, 100, 0};
    samples.add(
        new JobSample(
            last.time().plusSeconds(3),
            "RUNNING",
            SINCE,
            OptionalLong.of(0),
            poll(18, reset, parse, 0).vertices()));
    WindowResult.NotReady r =
        assertInstanceOf(WindowResult.NotReady.class, builder.build(GRAPH, samples));
    assertEquals(WindowProblem.COUNTER_DECREASED, r.problem());
    assertTrue(r.problem().invalidatesSamples());
    assertTrue(
        r.detail()
            .startsWith("numRecordsIn of vertex Source: A subtask 0 went down from 3750 to 12"),
        r.detail());
  }

  @Test
  void backPressuredTimeGoingDownIsARestart() {
    List<JobSample> samples = backPressuredSource();
    double[] source = {4000, 4000, 140, 50, 10};
    double[] parse = {4000, 4000, 27_900, 100, 0};
    samples.add(poll(18, source, parse, 0));
    WindowResult.NotReady r =
        assertInstanceOf(WindowResult.NotReady.class, builder.build(GRAPH, samples));
    assertEquals(WindowProblem.COUNTER_DECREASED, r.problem());
    assertTrue(r.detail().startsWith("accumulateBackPressuredTimeMs of vertex Source: A"));
  }

  @Test
  void numRestartsRisingIsARestart() {
    List<JobSample> samples = backPressuredSource();
    double[] source = {4500, 4500, 140, 50, 27_000};
    double[] parse = {4500, 4500, 27_900, 100, 0};
    samples.add(poll(18, source, parse, 1));
    assertEquals(
        WindowProblem.RESTARTED,
        assertInstanceOf(WindowResult.NotReady.class, builder.build(GRAPH, samples)).problem());
  }

  @Test
  void aVertexFlinkHasNotRefreshedYetIsWaitedForNotAnError() {
    // The source's values changed, Parse's are the previous poll's (its TaskManager answered
    // later): the window waits for Parse instead of timing it over zero seconds.
    List<JobSample> samples = new ArrayList<>();
    double[] parse = {100, 100, 9000, 1000, 0};
    for (int t = 0; t <= 12; t += 4) {
      double elapsed = 10_000 + 1000.0 * t;
      samples.add(poll(t, new double[] {250.0 * t, 250.0 * t, 10, 50, elapsed - 60}, parse, 0));
    }
    WindowResult.NotReady r =
        assertInstanceOf(WindowResult.NotReady.class, builder.build(GRAPH, samples));
    assertEquals(WindowProblem.TOO_FEW_SAMPLES, r.problem());
    assertEquals("waiting for Flink to refresh the metrics of vertex Parse", r.detail());
    assertTrue(!r.problem().invalidatesSamples());
  }

  @Test
  void pollsAFewMillisecondsShortOfTheWindowStillMakeOne() {
    WindowBuilder thirty = new WindowBuilder(Duration.ofSeconds(30), Duration.ZERO);
    List<JobSample> samples = new ArrayList<>();
    for (int k = 0; k <= 3; k++) {
      double ms = 9_993.0 * k; // three polls 29.98 s apart in task time
      double[] c = {ms / 10, ms / 10, ms / 2, ms / 2, 0};
      samples.add(poll(10 * k, c, c, 0));
    }
    ObservationWindow w =
        assertInstanceOf(WindowResult.Ready.class, thirty.build(GRAPH, samples)).window();
    assertEquals(29.979, w.vertex("a").orElseThrow().seconds(), 1e-9);
  }

  /**
   * A vertex back-pressured by its downstream, under Flink's own accounting: it works 0.8 ms per
   * record and stalls between bursts; a stall is added to the back-pressured counter only when it
   * ends or at Flink's 5 s view tick, and busy time is read as elapsed minus idle minus
   * back-pressured. Polled every 2 s over 30 s windows at 200 phases, the true processing rate must
   * be 1/cost = 1250/s: without bias, off by no more than three times the longest unaccounted stall
   * over the window's busy time (the bound of a least-squares slope, given in
   * docs/how-ds2-decides.md), and closer on average than the window's two ends alone.
   */
  @Test
  void trueRateOfABackPressuredVertexIsItsCostWithinTheLateAccountingBound() {
    assertWithinBound(200, 1500, 0.7); // long stalls: 17 % busy, readings off by up to 1.5 s
    assertWithinBound(20, 200, 1.0); // short stalls (small network buffers): both ~0.5 % off
  }

  private void assertWithinBound(int minStallMs, int maxStallMs, double atMostOfEnds) {
    FlinkTask task = new FlinkTask(0.8, minStallMs, maxStallMs, new Random(42));
    WindowBuilder thirty = new WindowBuilder(Duration.ofSeconds(30), Duration.ZERO);
    double sumFit = 0;
    double sumEnds = 0;
    double bias = 0;
    int phases = 200;
    for (int phase = 0; phase < phases; phase++) {
      int startMs = 10_000 + phase * 997;
      List<JobSample> samples = new ArrayList<>();
      for (int k = 0; k <= 15; k++) {
        int at = startMs + 2000 * k;
        double[] c = task.readAt(at);
        samples.add(
            new JobSample(
                T0.plusMillis(at),
                "RUNNING",
                SINCE,
                OptionalLong.of(0),
                Map.of("s", vertex("s", c, none()), "a", vertex("a", c, none()))));
      }
      VertexObservation a =
          assertInstanceOf(WindowResult.Ready.class, thirty.build(GRAPH, samples))
              .window()
              .vertex("a")
              .orElseThrow();
      double[] first = task.readAt(startMs);
      double[] last = task.readAt(startMs + 30_000);
      double records = last[0] - first[0];
      double trueBusyMs = task.trueBusyAt(startMs + 30_000) - task.trueBusyAt(startMs);
      double truth = records / (trueBusyMs / 1000); // 1250/s up to the 1 ms time grid
      assertEquals(1250, truth, 1250 * 0.01);
      // A least-squares slope over readings each off by [0, S] moves by at most 3 S / range: the
      // busy time by 3 S. Records are whole numbers: one record either end on top.
      double bound = 3 * Math.min(maxStallMs, 5000) / trueBusyMs + 2 / records;
      double fit = a.trueProcessingRatePerInstance().getAsDouble() / truth - 1;
      double ends = records / ((last[2] - first[2]) / 1000) / truth - 1;
      assertTrue(Math.abs(fit) <= bound, "phase " + phase + ": " + fit + " beyond " + bound);
      sumFit += Math.abs(fit);
      sumEnds += Math.abs(ends);
      bias += fit / phases;
    }
    assertTrue(Math.abs(bias) <= 0.01, "unbiased: mean error " + bias);
    assertTrue(sumFit <= atMostOfEnds * sumEnds, "fit " + sumFit + " vs ends " + sumEnds);
  }

  private static OptionalDouble none() {
    return OptionalDouble.empty();
  }

  /**
   * Flink's accounting of one task, millisecond by millisecond: bursts of work, stalls, the view
   * tick every 5 s that folds a stall in progress into the back-pressured counter.
   */
  private static final class FlinkTask {
    private final List<double[]> byMs = new ArrayList<>();
    private final List<Integer> trueBusy = new ArrayList<>();

    FlinkTask(double costMs, int minStallMs, int maxStallMs, Random random) {
      double records = 0;
      double accountedBp = 0;
      int stallStart = -1;
      int lastTick = 0;
      double workLeft = 0;
      int busyMs = 0;
      int stallLeft = 0;
      double period = 4; // records queue up at 250/s while stalled
      for (int ms = 0; ms <= 250_000; ms++) {
        if (ms - lastTick >= 5000) {
          lastTick = ms;
          if (stallStart >= 0) {
            accountedBp += ms - stallStart;
            stallStart = ms;
          }
        }
        if (stallLeft > 0) {
          stallLeft--;
          if (stallLeft == 0) {
            accountedBp += ms - stallStart;
            stallStart = -1;
            // After a stall the buffered records are worked off in a burst.
            workLeft = costMs * (int) (random.nextInt(200, 1500) / period);
          }
        } else if (workLeft > 0) {
          workLeft -= 1;
          busyMs++;
          records += 1 / costMs;
        } else {
          stallLeft = random.nextInt(minStallMs, maxStallMs);
          stallStart = ms;
        }
        double busy = Math.max(ms - accountedBp, 0);
        trueBusy.add(busyMs);
        byMs.add(new double[] {Math.floor(records), Math.floor(records), busy, 0, accountedBp});
      }
    }

    /** Time the task really worked, up to {@code ms}. */
    double trueBusyAt(int ms) {
      return trueBusy.get(ms);
    }

    double[] readAt(int ms) {
      return byMs.get(ms);
    }
  }
}
