package io.ds2.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.Observations;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.split.KafkaAssignment;
import io.ds2.core.split.Split;
import io.ds2.core.split.SplitOwnership;
import io.ds2.core.window.Backlog;
import io.ds2.core.window.RecordAge;
import io.ds2.core.window.SubtaskSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * A source vertex sized by the records its source operator reads per busy second and the splits
 * each subtask reads; every number is worked out in the comments.
 */
class SourceEstimateTest {
  private static final double SECONDS = 10;
  private static final Vertex SOURCE = new Vertex("s", "Source: S -> Parse", 128);
  private static final Vertex SINK = new Vertex("k", "Count -> Sink: Writer", 128);
  private static final JobGraph GRAPH =
      JobGraph.of(List.of(SOURCE, SINK), List.of(new Edge("s", "k", "HASH")));

  /** A subtask reading {@code perSecond} records at {@code costMs} each (busy, else idle). */
  private static SubtaskSample reading(int i, double perSecond, double costMs) {
    double in = perSecond * SECONDS;
    double busy = Math.min(SECONDS * 1000, in * costMs);
    return SubtaskSample.of(i, in, in, busy, SECONDS * 1000 - busy, 0);
  }

  private static Estimate estimate(
      Observations o, double demand, Map<String, Integer> splits, KeyedHistory history) {
    o.operator("k", List.of(SubtaskSample.of(0, 1000, 0, 1000, 9000, 0)));
    return RateModel.estimate(
        GRAPH,
        o.window(),
        Map.of("s", DemandEstimator.explicit(o.get("s"), demand)),
        Ds2Options.defaults(),
        history,
        splits);
  }

  private static List<ReasonCode> codes(VertexEstimate v) {
    return v.reasons().stream().map(Reason::code).toList();
  }

  /**
   * 10 splits, 1,000 records/s, the chain reads at 2.525 ms a record (396/s a subtask, Flink's own
   * work included): DS2 says 1000 / 396 = 2.53 -> 3, where a subtask reads 4 splits, 400/s: more
   * than it can. At 4 the busiest reads 3 (3,3,2,2): 300/s, 76 %.
   */
  @Test
  void tenSplitsAreSizedByTheBusiestSubtaskNotAnEvenShare() {
    Observations o =
        new Observations(SECONDS).source("s", List.of(reading(0, 396, 2.525)), Optional.empty());
    VertexEstimate s =
        estimate(o, 1000, Map.of("s", 10), KeyedHistory.empty()).vertex("s").orElseThrow();
    assertEquals(396, s.trueProcessingRatePerInstance().getAsDouble(), 1);
    assertEquals(2.53, s.requiredParallelism().getAsDouble(), 0.01);
    assertEquals(4, s.recommendedParallelism(), s.reasons().toString());
    SplitSpread spread = s.splitSpread().orElseThrow();
    assertEquals(SplitSpread.Basis.GIVEN, spread.basis());
    assertEquals(3, spread.ds2Parallelism());
    assertEquals(3, spread.busiestSplits());
    assertTrue(codes(s).contains(ReasonCode.UNEVEN_SPLITS), s.reasons().toString());
    assertTrue(s.reasons().toString().contains("the chain Source: S -> Parse"));
  }

  /**
   * A KafkaSource on 4 partitions at 100 records/s a subtask, 550/s arriving: DS2 says 6, but a
   * fifth subtask would read nothing. It goes to 4 and says why, naming topic and partitions.
   */
  @Test
  void aKafkaSourceNeverGoesAboveItsPartitions() {
    List<Split> partitions = new ArrayList<>();
    for (int n = 0; n < 4; n++) {
      partitions.add(new Split("events", n));
    }
    Observations o =
        new Observations(SECONDS)
            .source(
                "s",
                List.of(reading(0, 100, 10)),
                Optional.of(new SplitOwnership(List.of(partitions))));
    Estimate e = estimate(o, 550, Map.of(), KeyedHistory.empty());
    VertexEstimate s = e.vertex("s").orElseThrow();
    assertEquals(4, s.recommendedParallelism());
    assertEquals(SplitSpread.Basis.SPLIT_METRICS, s.splitSpread().orElseThrow().basis());
    assertTrue(codes(s).contains(ReasonCode.SOURCE_SPLIT_LIMIT), s.reasons().toString());
    String why = s.reasons().toString();
    assertTrue(why.contains("events (4 partitions)") && why.contains("more partitions"), why);

    // At 4, each subtask reads the partition the connector gives it, and still only 4.
    List<List<Split>> at4 = new ArrayList<>();
    List<SubtaskSample> subtasks = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      at4.add(new ArrayList<>());
      subtasks.add(reading(i, 100, 10));
    }
    for (Split p : partitions) {
      at4.get(KafkaAssignment.owner("events", p.partition(), 4)).add(p);
    }
    Observations later =
        new Observations(SECONDS).source("s", subtasks, Optional.of(new SplitOwnership(at4)));
    VertexEstimate again =
        estimate(later, 550, Map.of(), e.keyedHistory()).vertex("s").orElseThrow();
    assertEquals(4, again.recommendedParallelism());
    assertTrue(codes(again).contains(ReasonCode.SOURCE_SPLIT_LIMIT));
  }

  /**
   * At 6, two subtasks read nothing and sit idle while four read: the source has 4 splits. 300/s at
   * 100/s a subtask: DS2 says 3, where one subtask reads 2 of the 4 (150/s); 4 keeps up. The count
   * is remembered when every subtask reads again.
   */
  @Test
  void idleSubtasksTellTheSplitCount() {
    List<SubtaskSample> subtasks = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      subtasks.add(i < 4 ? reading(i, 75, 10) : reading(i, 0, 10));
    }
    Observations o = new Observations(SECONDS).source("s", subtasks, Optional.empty());
    Estimate e = estimate(o, 300, Map.of(), KeyedHistory.empty());
    VertexEstimate s = e.vertex("s").orElseThrow();
    assertEquals(SplitSpread.Basis.LEARNED_FROM_IDLE_SUBTASKS, s.splitSpread().get().basis());
    assertEquals(4, s.splitSpread().get().splits());
    assertEquals(4, s.recommendedParallelism(), s.reasons().toString());

    List<SubtaskSample> atFour = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      atFour.add(reading(i, 75, 10));
    }
    Observations later = new Observations(SECONDS).source("s", atFour, Optional.empty());
    VertexEstimate again =
        estimate(later, 300, Map.of(), e.keyedHistory()).vertex("s").orElseThrow();
    assertEquals(4, again.splitSpread().get().splits());
    assertEquals(4, again.recommendedParallelism());
  }

  /** No split count known: DS2's even answer, and the decision says so. */
  @Test
  void anUnknownSplitCountSizesEvenlyAndSaysSo() {
    Observations o =
        new Observations(SECONDS).source("s", List.of(reading(0, 396, 2.525)), Optional.empty());
    VertexEstimate s = estimate(o, 1000, Map.of(), KeyedHistory.empty()).vertex("s").get();
    assertEquals(3, s.recommendedParallelism());
    assertTrue(codes(s).contains(ReasonCode.SOURCE_SPLITS_UNKNOWN));
    assertTrue(s.splitSpread().isEmpty());
  }

  /** A legacy SourceFunction reports no records read: its capacity is unknown, it is kept. */
  @Test
  void aSourceWithoutRecordsReadKeepsItsParallelism() {
    Observations o = new Observations(SECONDS).source("s", 2, 5000);
    VertexEstimate s = estimate(o, 1000, Map.of(), KeyedHistory.empty()).vertex("s").get();
    assertEquals(2, s.recommendedParallelism());
    assertTrue(s.determined());
    assertEquals(List.of(ReasonCode.SOURCE_NOT_SCALED), codes(s));
    assertFalse(s.changes());
  }

  /**
   * Demand is in records read: a chain that filters (80 % kept) sends 80 % of it downstream, and a
   * chain ending in a sink (nothing emitted) is still sized by what arrives.
   */
  @Test
  void demandIsInRecordsReadWhateverTheChainEmits() {
    // reads 300/s at 2 ms (60 % busy), emits 240/s; 300/s arrive
    SubtaskSample filtering = SubtaskSample.of(0, 3000, 2400, 6000, 4000, 0);
    Observations o = new Observations(SECONDS).source("s", List.of(filtering), Optional.empty());
    Estimate e = estimate(o, 300, Map.of(), KeyedHistory.empty());
    VertexEstimate s = e.vertex("s").orElseThrow();
    assertEquals(300, s.targetInputRate().getAsDouble(), 1e-9);
    assertEquals(240, s.targetOutputRate().getAsDouble(), 1e-9);
    assertEquals(240, e.vertex("k").orElseThrow().targetInputRate().getAsDouble(), 1e-9);

    // the whole job one chain: reads 100/s at 10 ms (100 % busy), emits nothing; 600/s arrive
    SubtaskSample sinking = SubtaskSample.of(0, 1000, 0, 10_000, 0, 0);
    Observations all = new Observations(SECONDS).source("s", List.of(sinking), Optional.empty());
    VertexEstimate chain =
        estimate(all, 600, Map.of("s", 6), KeyedHistory.empty()).vertex("s").orElseThrow();
    assertEquals(6, chain.recommendedParallelism(), chain.reasons().toString());
    assertEquals(0, chain.targetOutputRate().getAsDouble(), 1e-9);
  }

  @Test
  void aSourceWhoseLagHidesTheHeadsSaysSoAndIsSizedForTheStep() {
    // Busy all 10 s reading 148/s over 12 partitions (1 MiB fetches), its gauge blind.
    Observations o = blindSource(1, 140);
    VertexEstimate s = sizedOverTwelvePartitions(o);
    assertEquals(ReasonCode.SOURCE_LAG_HIDDEN, codes(s).get(0));
    assertEquals(2, s.recommendedParallelism()); // 296/s at 148/s an instance
    assertTrue(
        s.reasons().get(0).message().contains("max.partition.fetch.bytes"),
        s.reasons().get(0).message());
  }

  @Test
  void aSourceSizedByItsRecordsAgeSaysWhatItReadAndHowFastTheyAged() {
    // The same blind source, its records 0.4 s older every second since its heads 40 s before:
    // 246.7/s arrive, where the blind step would take 296/s.
    Observations o = blindSource(1, 140).aged("s", new RecordAge(148 / 0.6, 148, 0.4, 40, false));
    VertexEstimate s = sizedOverTwelvePartitions(o);
    assertEquals(List.of(ReasonCode.SOURCE_ARRIVAL_FROM_RECORD_AGE), codes(s));
    assertEquals(2, s.recommendedParallelism()); // 246.7/s at 148/s an instance
    String why = s.reasons().get(0).message();
    assertTrue(
        why.contains("0.40 s a second")
            && why.contains("40 s before")
            && why.contains("246.7 records/s arrive where it read 148.0 records/s")
            && why.contains("(140.0 records/s)"),
        why);
  }

  @Test
  void atATargetBelowOneTheBlindStepStillDoublesTheCapacity() {
    // Three instances saturated reading 444/s (a restart's backlog drained while 400/s arrive),
    // the gauge blind, sized for 0.7: the step gives the job twice the capacity it read at (6),
    // not twice the read sized for 0.7 (8.6, and 12 by the splits).
    Observations o = blindSource(3, 420);
    Ds2Options at07 = Ds2Options.fromMap(Map.of(Ds2Options.TARGET_UTILIZATION, "0.7"));
    Map<String, SourceDemand> demands =
        DemandEstimator.demands(
            GRAPH, o.window(), DemandScenario.measured(), at07.catchUp(), at07.targetUtilization());
    assertEquals(2 * 444 * 0.7, demands.get("s").targetRate(), 1e-6);
    VertexEstimate s =
        RateModel.estimate(GRAPH, o.window(), demands, at07, KeyedHistory.empty(), Map.of("s", 12))
            .vertex("s")
            .orElseThrow();
    assertEquals(ReasonCode.SOURCE_LAG_HIDDEN, codes(s).get(0));
    assertEquals(6, s.recommendedParallelism(), s.toString());
  }

  /** Source s as its demand is inferred, at the defaults, reading 12 partitions. */
  private static VertexEstimate sizedOverTwelvePartitions(Observations o) {
    SourceDemand d = DemandEstimator.infer(o.get("s"), Optional.empty());
    return RateModel.estimate(
            GRAPH,
            o.window(),
            Map.of("s", d),
            Ds2Options.defaults(),
            KeyedHistory.empty(),
            Map.of("s", 12))
        .vertex("s")
        .orElseThrow();
  }

  /**
   * {@code p} source instances busy all {@link #SECONDS} reading 148/s each, whose blind gauge's
   * fit says {@code fitted}/s, and a downstream k.
   */
  private static Observations blindSource(int p, double fitted) {
    Backlog blind =
        new Backlog(
            1500,
            -10,
            fitted,
            3,
            10,
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            10,
            0,
            0,
            true);
    Observations o = new Observations(SECONDS);
    o.readingSource("s", p, 148 * p * SECONDS, 1000 * p * SECONDS, Optional.of(blind));
    o.operator("k", List.of(SubtaskSample.of(0, 1000, 0, 1000, 9000, 0)));
    return o;
  }
}
