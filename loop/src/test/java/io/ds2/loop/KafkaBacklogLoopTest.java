package io.ds2.loop;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.VertexDecision;
import io.ds2.core.scaler.Mode;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.VertexSample;
import io.ds2.flink.JobSampler;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.JobSpec.OperatorSpec;
import io.ds2.workloads.JobSpec.SourceSpec;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.kafka.KafkaBroker;
import io.ds2.workloads.kafka.KafkaInput;
import io.ds2.workloads.kafka.KafkaRateProducer;
import io.ds2.workloads.kafka.SequenceRecords;
import io.ds2.workloads.source.RateSchedule;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job reading a real Kafka topic with checkpoints, started under-provisioned: ds2 reads the
 * demand from the consumer lag the KafkaSource reports, and after its rescale the backlog that
 * built up (kept across the rescale by the checkpointed offsets) drains.
 */
class KafkaBacklogLoopTest {
  private static final double RATE = 250; // records/s produced
  private static final int PARTITIONS = 4;

  /**
   * Few, debloated network buffers: the overflow of an overloaded vertex cannot hide in them for
   * long (8-byte records in Flink's default 32 KiB buffers would take minutes to fill), so the
   * source is back-pressured and the topic's lag grows, as with a real job's records.
   */
  private static final Map<String, String> BACK_PRESSURE_REACHES_THE_SOURCE = new HashMap<>();

  static {
    BACK_PRESSURE_REACHES_THE_SOURCE.putAll(LocalFlinkCluster.SMALL_NETWORK_BUFFERS);
    BACK_PRESSURE_REACHES_THE_SOURCE.put(
        "taskmanager.network.memory.buffer-debloat.enabled", "true");
  }

  @Test
  void theDemandComesFromConsumerLagAndTheBacklogDrainsAfterTheRescale(@TempDir Path dir)
      throws Exception {
    // Work costs 10 ms a record: one instance takes 100/s of the 250/s, the lag grows by 150/s.
    JobSpec base =
        new JobSpec(
            "kafka-backlog",
            List.of(new SourceSpec("Events", RateSchedule.constant(RATE), 2)),
            List.of(new OperatorSpec("Work", List.of("Events"), 10, 1, 1, false, 0)));
    String topic = KafkaInput.topicOf(base.name(), "Events");
    // As a production job runs it: acting on two windows (the default), so the acting window's
    // arrival is fitted over the window before it too, and past the start. Measured on this test's
    // job polled every 0.5 s: the source's metrics stood still for the first ~4 s after the job
    // turned RUNNING, and one 10 s window started there read 284 records/s for 250 (twice); later
    // single windows read 238-260, and windows with a lead-in within 2.5 %.
    Ds2Options options =
        LoopTestSupport.options(
            "catch-up", "30s", "window", "10s", "warm-up", "10s", "activation", "2");
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
          LoopTestSupport flink = new LoopTestSupport(spec, 4, BACK_PRESSURE_REACHES_THE_SOURCE)) {
        ControlLoop loop = flink.loop(options, Mode.ACT, events);
        Decision rescale = null;
        for (int step = 0; step < 8 && rescale == null; step++) {
          Decision d = loop.step().orElseThrow();
          rescale = d.action() instanceof Action.Rescale ? d : null;
        }
        assertNotNull(rescale, "no rescale in 8 decisions: " + events.decisions);

        SourceDemand demand = rescale.estimate().demands().values().iterator().next();
        System.out.println("demand at the rescale: " + demand);
        assertEquals(SourceDemand.Basis.BACKLOG, demand.basis(), demand.toString());
        assertEquals(RATE, demand.currentRate(), 0.05 * RATE, demand.toString());
        VertexDecision work =
            rescale.vertices().stream().filter(v -> v.name().equals("Work")).findFirst().get();
        assertTrue(work.target() >= 3, "Work needs 2.5 instances and the backlog: " + work);

        JobSampler sampler = new JobSampler(flink.client, flink.jobId, Clock.systemUTC());
        JobGraph graph = sampler.topology().graph();
        String source = graph.sources().get(0).id();
        // The offsets survive the rescale: the backlog is still there, then it drains.
        await()
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> lag(sampler, graph, source) > 2 * RATE);
        await()
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> lag(sampler, graph, source) < RATE / 2);
        assertTrue(producer.sent() > 0);
      }
    }
  }

  /** The source's consumer lag (pendingRecords, summed over its subtasks); 0 while unknown. */
  private static double lag(JobSampler sampler, JobGraph graph, String source) {
    try {
      JobSample s = sampler.sample(graph);
      VertexSample v = s.vertices().get(source);
      return v == null ? 0 : v.pendingRecords().orElse(0);
    } catch (RuntimeException e) {
      return 0; // restarting: no metrics yet
    }
  }
}
