package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.testkit.FakeJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The operator's log says what it decides and does: one INFO line per decision and per rescale,
 * naming the resource, as the decision summary prints it.
 */
@EnableKubernetesMockClient(crud = true)
class OperatorLogTest {
  KubernetesMockServer server;
  KubernetesClient client;

  @Test
  void oneLinePerDecisionAndPerRescaleNamingTheResource() {
    OperatorTestSupport.registerKinds(server);
    OperatorTestSupport.create(
        client,
        "orders",
        Map.of(
            JobSettings.AUTOSCALING,
            "enabled",
            "ds2.io/window",
            "2s",
            "ds2.io/warm-up",
            "0s",
            "ds2.io/sample-interval",
            "200ms",
            "ds2.io/activation",
            "1"),
        Map.of(),
        Map.of());
    FakeJob job = OperatorTestSupport.fakeJob();
    PrintStream err = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    try (Ds2Operator ds2 =
        OperatorTestSupport.operator(
            client,
            (r, settings, current, resource) ->
                new JobEnds.Opened(job, job, Optional.empty(), () -> {}))) {
      ds2.start();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> log.toString(StandardCharsets.UTF_8).contains("/orders: applied"));
    } finally {
      System.setErr(err);
    }
    String text = log.toString(StandardCharsets.UTF_8);
    String prefix = "INFO io.ds2.operator.EventingListener - " + OperatorTestSupport.NS;
    assertTrue(text.contains(prefix + "/orders: RESCALE Parse 1->4"), text);
    assertTrue(text.contains(prefix + "/orders: applied: job runs at the new parallelism"), text);
  }
}
