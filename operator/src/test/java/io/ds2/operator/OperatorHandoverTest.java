package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.flink.FlinkRestClient;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.SampleJobs;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Controller instances handing over: a standby never patches, a new leader does not repeat the old
 * leader's decision, and a controller restarted between its patch and the Flink operator's
 * reconcile waits for that rescale instead of patching again.
 */
@EnableKubernetesMockClient(crud = true)
class OperatorHandoverTest {
  private static final JobSpec SPEC = SampleJobs.ordersAndPayments();
  private static LocalFlinkCluster cluster;
  KubernetesMockServer server;
  KubernetesClient client;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster =
        LocalFlinkCluster.startWithFastTimings(
            4,
            Map.of(),
            "the handovers are timed around decisions on short windows and rescales that take"
                + " effect in seconds");
  }

  @AfterAll
  static void stopCluster() throws Exception {
    cluster.close();
  }

  private static Map<String, String> annotations() {
    Map<String, String> a = new HashMap<>();
    a.put(JobSettings.AUTOSCALING, "enabled");
    a.put(JobSettings.REST_URL, cluster.restUrl().toString());
    a.put("ds2.io/window", "6s");
    a.put("ds2.io/warm-up", "4s");
    a.put("ds2.io/sample-interval", "500ms");
    a.put("ds2.io/activation", "1");
    a.put("ds2.io/rescale-timeout", "90s");
    return a;
  }

  private Ds2Operator operator() {
    return OperatorTestSupport.operator(client, new OperatorMetrics(), cluster.restUrl());
  }

  private LeaderElectedOperator instance(String id) {
    return new LeaderElectedOperator(
        client,
        this::operator,
        new LeaderElectedOperator.Lease(
            OperatorTestSupport.NS,
            "ds2-leader",
            id,
            Duration.ofSeconds(3),
            Duration.ofSeconds(2),
            Duration.ofMillis(250)));
  }

  private long generation(String name) {
    return OperatorTestSupport.get(client, name).getMetadata().getGeneration();
  }

  private String lastDecision(String name) {
    return OperatorTestSupport.get(client, name)
        .getMetadata()
        .getAnnotations()
        .get(JobSettings.LAST_DECISION);
  }

  @Test
  void onlyTheLeaderPatchesAndTheNextLeaderDoesNotRepeatIt() throws Exception {
    OperatorTestSupport.registerKinds(server);
    JobClient job = OperatorTestSupport.submitRunning(cluster, SPEC);
    String jobId = job.getJobID().toHexString();
    FlinkRestClient rest = new FlinkRestClient(cluster.restUrl(), Duration.ofSeconds(10));
    OperatorTestSupport.create(
        client, "handover", annotations(), Map.of(), StandInFlinkOperator.status(1, jobId));
    try (StandInFlinkOperator flinkOperator =
            new StandInFlinkOperator(client, OperatorTestSupport.NS, rest, jobId);
        LeaderElectedOperator a = instance("a");
        LeaderElectedOperator b = instance("b")) {
      a.start();
      await().atMost(Duration.ofSeconds(10)).until(a::leading);
      b.start();
      await()
          .atMost(Duration.ofSeconds(120))
          .until(() -> OperatorTestSupport.runningParallelism(rest, jobId).equals(SPEC.oracle()));
      assertFalse(b.leading(), "b stands by");
      assertTrue(b.ready(), "a standby is ready");
      assertEquals(1, flinkOperator.applied.get());
      long generation = generation("handover");

      String decidedByA = lastDecision("handover");
      a.close();
      await().atMost(Duration.ofSeconds(15)).until(b::leading);
      // b decides on fresh windows: the job already runs at its target, so no patch.
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> !lastDecision("handover").equals(decidedByA));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> lastDecision("handover").contains("\"action\":\"hold\""));
      assertEquals(generation, generation("handover"), "no second patch");
      assertEquals(1, flinkOperator.applied.get());
    } finally {
      job.cancel().get();
    }
  }

  @Test
  void aControllerRestartedBetweenPatchAndReconcileDoesNotPatchAgain() throws Exception {
    OperatorTestSupport.registerKinds(server);
    JobClient job = OperatorTestSupport.submitRunning(cluster, SPEC);
    String jobId = job.getJobID().toHexString();
    FlinkRestClient rest = new FlinkRestClient(cluster.restUrl(), Duration.ofSeconds(10));
    OperatorTestSupport.create(
        client, "restart", annotations(), Map.of(), StandInFlinkOperator.status(1, jobId));
    try (StandInFlinkOperator flinkOperator =
        new StandInFlinkOperator(client, OperatorTestSupport.NS, rest, jobId)) {
      flinkOperator.pause(true); // the Flink operator is slow to reconcile
      try (Ds2Operator first = operator()) {
        first.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> generation("restart") == 2);
      } // the controller goes away after its patch, before the reconcile
      try (Ds2Operator second = operator()) {
        second.start();
        await()
            .during(Duration.ofSeconds(15))
            .atMost(Duration.ofSeconds(20))
            .until(() -> generation("restart") == 2);
        flinkOperator.pause(false);
        flinkOperator.reconcileNow(OperatorTestSupport.NS, "restart");
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> OperatorTestSupport.runningParallelism(rest, jobId).equals(SPEC.oracle()));
        await()
            .during(Duration.ofSeconds(10))
            .atMost(Duration.ofSeconds(15))
            .until(() -> generation("restart") == 2);
        assertEquals(1, flinkOperator.applied.get(), "one patch, one rescale");
      }
    } finally {
      job.cancel().get();
    }
  }
}
