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
import org.junit.jupiter.api.Test;

/** A source's backlog and arrival rate, fitted over its window and the polls of its run before. */
class SourceBacklogTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source", 128), new Vertex("a", "Work", 128)),
          List.of(new Edge("s", "a", "HASH")));
  private final WindowBuilder builder = new WindowBuilder(Duration.ofSeconds(10), Duration.ZERO);

  /**
   * A source behind its input, polled every second for {@code seconds} from {@code from}: it emits
   * 300/s while {@code arrived(t)} records have arrived by second t (the rest is its backlog).
   */
  private static List<JobSample> lagging(
      int from, int seconds, Instant since, java.util.function.IntToDoubleFunction arrived) {
    List<JobSample> samples = new ArrayList<>();
    for (int t = from; t <= from + seconds; t++) {
      double emitted = 300.0 * t;
      double pending = arrived.applyAsDouble(t) - emitted;
      samples.add(poll(t, since, emitted, pending));
    }
    return samples;
  }

  /**
   * One poll at second {@code t} of a run: the source has emitted {@code emitted} records with
   * {@code pending} waiting (busy 0, idle 1,000 ms a second); the operator behind it processed them
   * all (900 ms busy a second).
   */
  private static JobSample poll(int t, Instant since, double emitted, double pending) {
    Map<String, VertexSample> v = new LinkedHashMap<>();
    v.put(
        "s",
        new VertexSample(
            "s",
            "RUNNING",
            1,
            List.of(SubtaskSample.of(0, 0, emitted, 0, 1000.0 * t, 0)),
            OptionalDouble.of(pending)));
    v.put(
        "a",
        new VertexSample(
            "a",
            "RUNNING",
            1,
            List.of(SubtaskSample.of(0, emitted, emitted, 900.0 * t, 100.0 * t, 0)),
            OptionalDouble.empty()));
    return new JobSample(T0.plusSeconds(t), "RUNNING", since, OptionalLong.of(0), v);
  }

  private Backlog backlog(List<JobSample> leadIn, List<JobSample> window) {
    return assertInstanceOf(WindowResult.Ready.class, builder.build(GRAPH, leadIn, window))
        .window()
        .vertex("s")
        .orElseThrow()
        .backlog()
        .orElseThrow();
  }

  /**
   * A real trace: a Kafka source behind by thousands of records, its topic written at 299.7
   * records/s (end offsets 2,619 to 20,001 over 58 s), polled every second with the metric store
   * refreshing every second (Flink 1.20.3 MiniCluster, KafkaSource, 4 partitions, fetches of 4 KiB;
   * readings that repeat the last one left out): seconds, records emitted, pendingRecords.
   */
  private static final int[][] LAGGING_KAFKA_SOURCE = {
    {0, 1173, 918}, {2, 1564, 1353}, {4, 1759, 1584}, {6, 1955, 1960}, {7, 2150, 1992},
    {8, 2151, 1992}, {9, 2541, 2406}, {11, 2736, 2592}, {12, 2737, 2592}, {14, 2932, 3017},
    {15, 3128, 3270}, {18, 3519, 3902}, {19, 3714, 4092}, {21, 3910, 4317}, {22, 4105, 4530},
    {23, 4106, 4530}, {24, 4301, 4953}, {25, 4496, 4941}, {26, 4691, 5169}, {27, 4887, 5587},
    {30, 5083, 5799}, {32, 5278, 6261}, {33, 5279, 6261}, {34, 5669, 6673}, {35, 5865, 7054},
    {37, 6060, 7085}, {38, 6061, 7085}, {40, 6451, 7499}, {41, 6646, 7725}, {44, 6842, 8110},
    {45, 7038, 8367}, {47, 7234, 8779}, {49, 7624, 9191}, {51, 8015, 9600}, {53, 8016, 9600},
    {55, 8406, 10052}, {56, 8601, 10239}, {57, 8602, 10239}, {58, 8797, 10661}
  };

  /** The trace's readings from second {@code from} to {@code to}, as polls of one run. */
  private static List<JobSample> trace(int from, int to) {
    List<JobSample> samples = new ArrayList<>();
    for (int[] r : LAGGING_KAFKA_SOURCE) {
      if (r[0] < from || r[0] > to) {
        continue;
      }
      samples.add(poll(r[0], T0.minusSeconds(200), r[1], r[2]));
    }
    return samples;
  }

  @Test
  void aLaggingKafkaSourcesArrivalIsFittedOverTheEarlierPollsOfTheSameRun() {
    Backlog alone = backlog(List.of(), trace(34, 44));
    Backlog fitted = backlog(trace(14, 33), trace(34, 44));
    assertEquals(255.3, alone.arrivalRate(), 0.1); // 15 % short from the window alone
    assertEquals(10, alone.arrivalSpanSeconds(), 1e-9);
    assertEquals(300.5, fitted.arrivalRate(), 0.1);
    assertEquals(30, fitted.arrivalSpanSeconds(), 1e-9);
    // The window's own span, readings and backlog growth are what they were.
    assertEquals(alone.spanSeconds(), fitted.spanSeconds(), 1e-9);
    assertEquals(alone.points(), fitted.points());
    assertEquals(alone.growthPerSecond(), fitted.growthPerSecond(), 1e-9);
    // Every 10 s window of the trace (fitted alone: 255-332/s) with the 20 s before it: within
    // 2 % of the topic's rate, and the halves, 6-50 % apart, never further apart than the
    // gauge's noise allows: no load change is seen where there was none.
    int off = 0;
    int windows = 0;
    for (int start = 20; start <= 48; start++) {
      WindowResult r = builder.build(GRAPH, trace(start - 20, start - 1), trace(start, start + 10));
      if (!(r instanceof WindowResult.Ready ready)) {
        continue; // fresh readings span less than 10 s: refused, as live
      }
      windows++;
      Backlog b = ready.window().vertex("s").orElseThrow().backlog().orElseThrow();
      off += Math.abs(b.arrivalRate() - 299.7) > 0.02 * 299.7 ? 1 : 0;
      double early = b.earlyArrivalRate().getAsDouble();
      double late = b.lateArrivalRate().getAsDouble();
      double steady = Backlog.STEADY_TOLERANCE * Math.max(early, late);
      assertTrue(
          Math.abs(early - late) <= Math.max(steady, b.shiftTolerance()),
          "window from " + start + " s: " + b);
    }
    assertEquals(12, windows);
    assertEquals(0, off);
  }

  @Test
  void aLoadChangeBeforeTheWindowShortensTheFitInsteadOfBeingAveraged() {
    Instant since = T0.minusSeconds(200);
    // 400/s until second 20, then 800/s: the window sees only the new load.
    java.util.function.IntToDoubleFunction stepped =
        t -> t <= 20 ? 400.0 * t + 50_000 : 400.0 * 20 + 800.0 * (t - 20) + 50_000;
    Backlog b = backlog(lagging(0, 19, since, stepped), lagging(20, 10, since, stepped));
    assertEquals(800, b.arrivalRate(), 1e-6);
    assertEquals(10, b.arrivalSpanSeconds(), 1e-9);
    // From second 25 on: the lead-in's last 5 s agree, its first 20 s do not.
    Backlog later = backlog(lagging(5, 19, since, stepped), lagging(25, 10, since, stepped));
    assertEquals(800, later.arrivalRate(), 1e-6);
    assertEquals(15, later.arrivalSpanSeconds(), 1e-9);
  }

  @Test
  void pollsOfAnEarlierRunAreNotALeadIn() {
    java.util.function.IntToDoubleFunction before = t -> 200.0 * t + 50_000;
    java.util.function.IntToDoubleFunction after = t -> 400.0 * t + 50_000;
    Backlog b =
        backlog(
            lagging(0, 19, T0.minusSeconds(300), before),
            lagging(20, 10, T0.minusSeconds(200), after));
    assertEquals(400, b.arrivalRate(), 1e-6);
    assertEquals(10, b.arrivalSpanSeconds(), 1e-9);
  }
}
