package io.ds2.core.window;

import static org.junit.jupiter.api.Assertions.assertFalse;
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

/**
 * A Kafka source whose consumer holds fetched records its lag does not count: (read + lag) stands
 * still while it reads, then jumps by a fetch. Such a gauge says the source read what it could, not
 * what arrives; a gauge that only stands still (nothing arrives) or tracks the arrival does not.
 */
class HiddenHeadsTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final JobGraph GRAPH =
      JobGraph.of(
          List.of(new Vertex("s", "Source: Orders -> Parse", 128), new Vertex("j", "Join", 128)),
          List.of(new Edge("s", "j", "HASH")));
  private final WindowBuilder builder = new WindowBuilder(Duration.ofSeconds(30), Duration.ZERO);

  /**
   * The fan-in job's {@code Source: Orders -> Parse} at parallelism 1 after its first rescale, at
   * Flink's and Kafka's defaults (1 MiB fetches; 2026-12-03 probe, 400 records/s written to 12
   * partitions): seconds into the run, records read, pendingRecords. Busy all the time, it read
   * 148/s; (read + lag) stood at 3,484, 6,202, 8,976, 14,404 for 10 s each and jumped by ~2,750
   * between.
   */
  private static final long[][] SATURATED_1MIB = {
    {5, 1156, 2328},
    {15, 2651, 828},
    {25, 4148, 2054},
    {36, 5649, 554},
    {46, 7145, 1831},
    {56, 8645, 331},
    {66, 10133, 1495},
    {76, 11632, 2772},
    {86, 13119, 1272},
  };

  private static List<JobSample> polls(long[][] trace, int from, int to, double busyShare) {
    List<JobSample> samples = new ArrayList<>();
    for (long[] r : trace) {
      if (r[0] >= from && r[0] <= to) {
        samples.add(poll((int) r[0], r[1], r[2], busyShare));
      }
    }
    return samples;
  }

  private static JobSample poll(int t, double read, double pending, double busyShare) {
    Map<String, VertexSample> v = new LinkedHashMap<>();
    double busy = 1000.0 * t * busyShare;
    v.put(
        "s",
        new VertexSample(
            "s",
            "RUNNING",
            1,
            List.of(SubtaskSample.of(0, read, read, busy, 1000.0 * t - busy, 0)),
            OptionalDouble.of(pending)));
    v.put(
        "j",
        new VertexSample(
            "j",
            "RUNNING",
            1,
            List.of(SubtaskSample.of(0, 140.0 * t, 140.0 * t, 500.0 * t, 500.0 * t, 0)),
            OptionalDouble.empty()));
    return new JobSample(T0.plusSeconds(t), "RUNNING", T0, OptionalLong.of(0), v);
  }

  private Backlog backlog(List<JobSample> leadIn, List<JobSample> window) {
    WindowResult r = builder.build(GRAPH, leadIn, window);
    return assertInstanceOf(WindowResult.Ready.class, r, r.toString())
        .window()
        .vertex("s")
        .orElseThrow()
        .backlog()
        .orElseThrow();
  }

  @Test
  void aGaugeStandingStillWhileTheSourceReadsThenJumpingHidesTheHeads() {
    Backlog b = backlog(polls(SATURATED_1MIB, 0, 35, 1), polls(SATURATED_1MIB, 36, 66, 1));
    assertTrue(b.headsHidden());
    // The fit reads no more than the source read (148/s), for 400 arriving.
    assertTrue(b.arrivalRate() < 150, "arrival " + b.arrivalRate());
  }

  @Test
  void aGaugeStandingStillOnlyIsASourceDrainingWhatWaits() {
    // Nothing arrives: every record read leaves the lag, (read + lag) stands at 20,000.
    long[][] draining = {{5, 1000, 19000}, {15, 2500, 17500}, {25, 4000, 16000}, {36, 5650, 14350}};
    assertFalse(backlog(List.of(), polls(draining, 0, 36, 1)).headsHidden());
  }

  @Test
  void aGaugeThatGrowsWithTheArrivalShowsTheHeads() {
    // 400/s arriving, 150/s read: the lag grows by 250/s, give or take a fetch.
    long[][] fresh = {
      {5, 750, 1300}, {15, 2250, 3700}, {25, 3750, 6350}, {36, 5400, 8750}, {46, 6900, 11300}
    };
    assertFalse(backlog(polls(fresh, 0, 5, 1), polls(fresh, 15, 46, 1)).headsHidden());
  }
}
