package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A job the Flink operator has not reported on yet (just created) or reports as not running
 * (deploying, restarting, suspended) is waited for without a Warning: its REST API is not up, and
 * nothing is wrong. Once the status says RUNNING, the loop reaches for Flink at its next poll.
 */
@EnableKubernetesMockClient(crud = true)
class JobNotRunningTest {
  KubernetesMockServer server;
  KubernetesClient client;

  private static Map<String, String> annotations() {
    Map<String, String> a = new HashMap<>();
    a.put(JobSettings.AUTOSCALING, "enabled");
    // Nothing answers there: once the loop reaches for Flink, it reports MetricsNotReady.
    a.put(JobSettings.REST_URL, OperatorTestSupport.NOTHING_LISTENS);
    a.put("ds2.io/window", "2s");
    a.put("ds2.io/sample-interval", "200ms");
    return a;
  }

  @Test
  void noWarningUntilTheFlinkOperatorSaysTheJobRuns() {
    OperatorTestSupport.registerKinds(server);
    OperatorTestSupport.create(client, "new", annotations(), Map.of(), Map.of());
    OperatorTestSupport.create(
        client,
        "deploying",
        annotations(),
        Map.of(),
        Map.of("lifecycleState", "DEPLOYED", "jobStatus", Map.of("state", "RECONCILING")));
    try (Ds2Operator ds2 = OperatorTestSupport.operator(client, new OperatorMetrics())) {
      ds2.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> ds2.managed() == 2);
      // Several polls and more than a window: nothing to warn about.
      await()
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(5))
          .until(() -> OperatorTestSupport.events(client, "MetricsNotReady").isEmpty());

      GenericKubernetesResource r = OperatorTestSupport.get(client, "deploying");
      r.setAdditionalProperty("status", Map.of("jobStatus", Map.of("state", "RUNNING")));
      client
          .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
          .inNamespace(OperatorTestSupport.NS)
          .resource(r)
          .updateStatus();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> !OperatorTestSupport.events(client, "MetricsNotReady").isEmpty());
      var warnings = OperatorTestSupport.events(client, "MetricsNotReady");
      assertEquals(1, warnings.size(), "only the running one");
      assertEquals("deploying", warnings.get(0).getInvolvedObject().getName());
    }
  }
}
