package io.ds2.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.estimate.SplitSpread;
import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.VertexDecision;
import io.ds2.core.scaler.Mode;
import io.ds2.core.split.SplitOwnership;
import io.ds2.core.window.SourceFetch;
import io.ds2.flink.JobSampler;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.JobSpec.OperatorSpec;
import io.ds2.workloads.JobSpec.SourceSpec;
import io.ds2.workloads.kafka.KafkaBroker;
import io.ds2.workloads.kafka.KafkaInput;
import io.ds2.workloads.kafka.KafkaRateProducer;
import io.ds2.workloads.kafka.SequenceRecords;
import io.ds2.workloads.source.RateSchedule;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A KafkaSource on 4 partitions chained with a parser that needs 6 instances (600 records/s at 10
 * ms), from parallelism 1, checkpointed, Flink at its network defaults (the bottleneck is the
 * source's own chain, so nothing needs back-pressure to reach it): ds2 reads the 4 partitions from
 * the reader's metrics, goes to 4 and stays there with {@code SOURCE_SPLIT_LIMIT}, never asking for
 * more, though the source still cannot keep up.
 */
class KafkaSplitLimitLoopTest {
  private static final double RATE = 600;
  private static final int PARTITIONS = 4;

  @Test
  void aSourceOnFourPartitionsGoesToFourAndNoFurther(@TempDir Path dir) throws Exception {
    JobSpec base =
        new JobSpec(
            "kafka-split-limit",
            List.of(new SourceSpec("Events", RateSchedule.constant(RATE), 1, PARTITIONS)),
            List.of(new OperatorSpec("Parse", List.of("Events"), 10, 1, 1, false, 0)));
    String vertex = base.vertexOf("Events");
    assertEquals("Source: Events -> Parse", vertex);
    assertEquals(Map.of(vertex, PARTITIONS), base.oracle());
    String topic = KafkaInput.topicOf(base.name(), "Events");
    Ds2Options options = LoopTestSupport.options("window", "10s", "warm-up", "10s");
    RecordingListener events = new RecordingListener();
    try (KafkaBroker broker = KafkaBroker.start(dir.resolve("kafka"), PARTITIONS)) {
      broker.createTopic(topic, PARTITIONS);
      JobSpec spec =
          base.withKafka(new KafkaInput(broker.bootstrapServers(), Duration.ofSeconds(2)));
      try (KafkaRateProducer producer =
              KafkaRateProducer.start(
                  broker.bootstrapServers(),
                  topic,
                  PARTITIONS,
                  RateSchedule.constant(RATE),
                  SequenceRecords.DEFAULT_BYTES);
          LoopTestSupport flink = new LoopTestSupport(spec, 4, Map.of())) {
        ControlLoop loop = flink.loop(options, Mode.ACT, events);
        Decision rescale = null;
        for (int step = 0; step < 8 && rescale == null; step++) {
          Decision d = loop.step().orElseThrow();
          rescale = d.action() instanceof Action.Rescale ? d : null;
        }
        assertNotNull(rescale, "no rescale in 8 decisions: " + events.decisions);
        assertEquals(PARTITIONS, target(rescale, vertex).target(), rescale.toString());
        VertexEstimate e = estimate(rescale, vertex);
        assertEquals(SplitSpread.Basis.SPLIT_METRICS, e.splitSpread().orElseThrow().basis());
        assertEquals(PARTITIONS, e.splitSpread().get().splits());
        assertTrue(codes(target(rescale, vertex)).contains(ReasonCode.SOURCE_SPLIT_LIMIT));

        // At 4 it still cannot keep up, and ds2 asks for nothing more, saying why.
        int after = 0;
        for (int step = 0; step < 8 && after < 2; step++) {
          Decision d = loop.step().orElseThrow();
          VertexDecision v = target(d, vertex);
          if (v.current() == PARTITIONS) {
            after++;
            assertEquals(PARTITIONS, v.target(), d.toString());
            assertTrue(codes(v).contains(ReasonCode.SOURCE_SPLIT_LIMIT), v.toString());
          }
        }
        assertEquals(2, after, "two decisions at 4: " + events.decisions);
        for (Decision d : events.decisions) {
          assertTrue(target(d, vertex).target() <= PARTITIONS, d.toString());
        }
        JobSampler sampler = new JobSampler(flink.client, flink.jobId, Clock.systemUTC());
        JobGraph graph = sampler.topology().graph();
        // Flink's metric store still names the partitions subtask 0 read before the rescale; what
        // the other subtasks read strikes them: one partition each.
        SplitOwnership named =
            sampler.sample(graph).vertices().get(graph.sources().get(0).id()).splits().get();
        int[] owners = named.resolve(new boolean[] {true, true, true, true}).orElseThrow();
        System.out.println(
            "named " + named.bySubtask() + ", read by " + java.util.Arrays.toString(owners));
        assertEquals(
            List.of(0, 1, 2, 3),
            java.util.Arrays.stream(owners).sorted().boxed().toList(),
            "one partition each");
        // Each subtask's consumer says how it fetches, under Kafka's names (kept in recordings).
        List<SourceFetch> fetches =
            sampler.sample(graph).vertices().get(graph.sources().get(0).id()).fetches();
        assertEquals(PARTITIONS, fetches.size(), fetches.toString());
        for (SourceFetch f : fetches) {
          assertTrue(f.fetchesPerSecond().orElse(0) > 0, fetches.toString());
          assertTrue(f.fetchLatencyMs().isPresent(), fetches.toString());
          assertTrue(f.bytesPerFetch().isPresent(), fetches.toString());
        }
        // And how old the records each emits are, by their Kafka timestamps (kept in recordings):
        // the job keeps up, so no older than the run.
        List<java.util.OptionalDouble> lag =
            sampler.sample(graph).vertices().get(graph.sources().get(0).id()).emitLagMs();
        assertEquals(PARTITIONS, lag.size(), lag.toString());
        for (java.util.OptionalDouble l : lag) {
          assertTrue(l.isPresent() && l.getAsDouble() < 600_000, lag.toString());
        }
        assertTrue(producer.sent() > 0);
      }
    }
  }

  private static VertexDecision target(Decision d, String name) {
    return d.vertices().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
  }

  private static VertexEstimate estimate(Decision d, String name) {
    return d.estimate().vertices().stream()
        .filter(v -> v.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static List<ReasonCode> codes(VertexDecision v) {
    return v.reasons().stream().map(r -> r.code()).toList();
  }
}
