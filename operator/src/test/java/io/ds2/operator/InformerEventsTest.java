package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the informer delivers: an update that changes nothing ds2 reads (a resync, a label) keeps
 * the running loop, never starts a second one; a deletion stops the loop, as soon as it begins.
 */
@EnableKubernetesMockClient(crud = true)
class InformerEventsTest {
  KubernetesMockServer server;
  KubernetesClient client;

  @Test
  void resyncKeepsTheLoopAndDeletionStopsIt() {
    OperatorTestSupport.registerKinds(server);
    GenericKubernetesResource created =
        OperatorTestSupport.create(
            client,
            "quiet",
            // Nothing answers there: the loop reports and waits, which is all this test needs.
            Map.of(
                JobSettings.AUTOSCALING,
                "advisor",
                JobSettings.REST_URL,
                OperatorTestSupport.NOTHING_LISTENS),
            Map.of(),
            Map.of());
    try (Ds2Operator ds2 = OperatorTestSupport.operator(client, new OperatorMetrics())) {
      ds2.start();
      String uid = created.getMetadata().getUid();
      await().atMost(Duration.ofSeconds(20)).until(() -> ds2.job(uid).isPresent());
      ManagedJob loop = ds2.job(uid).orElseThrow();

      GenericKubernetesResource r = OperatorTestSupport.get(client, "quiet");
      r.getMetadata().setLabels(Map.of("team", "payments"));
      client
          .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
          .inNamespace(OperatorTestSupport.NS)
          .resource(r)
          .update();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  "payments"
                      .equals(
                          OperatorTestSupport.get(client, "quiet")
                              .getMetadata()
                              .getLabels()
                              .get("team")));
      await()
          .during(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(5))
          .until(() -> ds2.managed() == 1);
      assertSame(loop, ds2.job(uid).orElseThrow(), "the same loop, not a second one");
      assertFalse(loop.stopped());

      client
          .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
          .inNamespace(OperatorTestSupport.NS)
          .withName("quiet")
          .delete();
      await().atMost(Duration.ofSeconds(20)).until(() -> ds2.managed() == 0 && loop.stopped());
    }
  }

  @Test
  void aDeletionStopsTheLoopWhileTheFlinkOperatorsFinalizerStillHoldsTheResource() {
    OperatorTestSupport.registerKinds(server);
    GenericKubernetesResource r =
        OperatorTestSupport.create(
            client,
            "leaving",
            Map.of(
                JobSettings.AUTOSCALING,
                "advisor",
                JobSettings.REST_URL,
                OperatorTestSupport.NOTHING_LISTENS),
            Map.of(),
            Map.of());
    r.getMetadata().setFinalizers(List.of("flinkdeployments.flink.apache.org/finalizer"));
    client
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(OperatorTestSupport.NS)
        .resource(r)
        .update();
    try (Ds2Operator ds2 = OperatorTestSupport.operator(client, new OperatorMetrics())) {
      ds2.start();
      String uid = r.getMetadata().getUid();
      await().atMost(Duration.ofSeconds(20)).until(() -> ds2.job(uid).isPresent());
      ManagedJob loop = ds2.job(uid).orElseThrow();
      client
          .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
          .inNamespace(OperatorTestSupport.NS)
          .withName("leaving")
          .delete();
      await().atMost(Duration.ofSeconds(20)).until(() -> ds2.managed() == 0 && loop.stopped());
      // Still there, held by the finalizer, and marked for deletion.
      assertNotNull(
          OperatorTestSupport.get(client, "leaving").getMetadata().getDeletionTimestamp());
    }
  }
}
