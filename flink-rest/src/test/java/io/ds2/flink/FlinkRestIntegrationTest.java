package io.ds2.flink;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.DemandEstimator;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.RateModel;
import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.window.ObservationWindow;
import io.ds2.core.window.VertexObservation;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.SampleJobs;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The REST client against a real Flink MiniCluster running an under-provisioned job with controlled
 * per-record costs: the estimate from one window must equal the closed-form oracle on every vertex,
 * with demand given and with demand inferred from {@code pendingRecords}.
 */
class FlinkRestIntegrationTest {
  private static final JobSpec SPEC = SampleJobs.ordersAndPayments();
  private static LocalFlinkCluster cluster;
  private static JobClient job;

  @BeforeAll
  static void startJob() throws Exception {
    cluster =
        LocalFlinkCluster.startWithFastTimings(
            4, Map.of(), "its one short window must see many metric refreshes: 1 s, not 10 s");
    job = cluster.submit(SPEC);
  }

  @AfterAll
  static void stop() throws Exception {
    if (job != null) {
      job.cancel().get();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void estimateFromRealMetricsMatchesTheOracle() throws Exception {
    FlinkRestClient client = new FlinkRestClient(cluster.restUrl(), Duration.ofSeconds(10));
    JobLocator locator = new JobLocator(client);
    String jobId =
        await()
            .atMost(Duration.ofSeconds(60))
            .ignoreException(FlinkRestException.class)
            .until(() -> locator.locate(Optional.empty()).jid(), id -> id != null);
    assertEquals(job.getJobID().toHexString(), jobId);

    JobSampler sampler = new JobSampler(client, jobId, Clock.systemUTC());
    JobTopology topology = sampler.topology();
    // Flink chains the sample job: Source: Orders -> Parse, Source: Payments, Join -> Sink.
    assertEquals(3, topology.graph().topologicalOrder().size());
    Vertex join = topology.graph().find("Join -> Sink").orElseThrow();
    assertEquals(2, topology.graph().inputsOf(join.id()).size(), "fan-in");
    assertTrue(topology.graph().inputsOf(join.id()).get(0).keyed());
    // Flink reports each vertex's slot-sharing group; a job that names none has one, the default.
    assertEquals(
        List.of(topology.graph().sources().get(0).slotSharingGroup()),
        topology.graph().topologicalOrder().stream()
            .map(Vertex::slotSharingGroup)
            .distinct()
            .toList());
    assertTrue(join.slotSharingGroup().isPresent(), join.toString());

    Ds2Options options =
        Ds2Options.fromMap(Map.of("window", "20s", "warm-up", "5s", "sample-interval", "500ms"));
    ObservationWindow window = Windows.collect(sampler, topology.graph(), options);

    Map<String, SourceDemand> inferred = new HashMap<>();
    Map<String, SourceDemand> given = new HashMap<>();
    for (JobSpec.SourceSpec s : SPEC.sources()) {
      Vertex v = topology.graph().find(SPEC.vertexOf(s.name())).orElseThrow();
      VertexObservation obs = window.vertex(v.id()).orElseThrow();
      assertTrue(obs.backlog().isPresent(), "the generator reports pendingRecords");
      inferred.put(v.id(), DemandEstimator.infer(obs, Optional.empty()));
      given.put(v.id(), DemandEstimator.explicit(obs, s.schedule().rateAt(0)));
      double rate = s.schedule().rateAt(0);
      assertEquals(
          rate,
          inferred.get(v.id()).targetRate(),
          rate * 0.01,
          "inferred demand of "
              + s.name()
              + " from "
              + obs.timeBase()
              + " over "
              + obs.seconds()
              + " s (window "
              + window.length()
              + "), output "
              + obs.observedOutputRate()
              + "/s, "
              + obs.backlog()
              + ", subtasks "
              + obs.subtaskDeltas());
    }
    Map<String, Integer> oracle = SPEC.oracle();
    for (Map<String, SourceDemand> demands : java.util.List.of(inferred, given)) {
      Estimate est = RateModel.estimate(topology.graph(), window, demands, options);
      for (VertexEstimate v : est.vertices()) { // sources included: they are sized too
        assertEquals(
            oracle.get(v.name()),
            v.recommendedParallelism(),
            v.name()
                + " needs "
                + v.requiredParallelism()
                + " at "
                + v.targetInputRate()
                + " rec/s with "
                + v.trueProcessingRatePerInstance()
                + " per instance: "
                + v.reasons());
      }
    }
  }
}
