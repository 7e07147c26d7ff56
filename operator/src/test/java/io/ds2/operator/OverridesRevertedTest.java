package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobSampler;
import io.ds2.flink.Sleeper;
import io.ds2.loop.Rescales;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Someone (GitOps, a person) changed the overrides ds2 had applied: ds2 does not patch them back
 * (no fight); it reports it so the loop backs off and a Warning is emitted.
 */
@EnableKubernetesMockClient(crud = true)
class OverridesRevertedTest {
  KubernetesMockServer server;
  KubernetesClient client;

  @Test
  void overridesChangedBySomeoneElseAreNotPatchedBack() throws Exception {
    OperatorTestSupport.registerKinds(server);
    OperatorTestSupport.create(
        client,
        "reverted",
        Map.of(JobSettings.AUTOSCALING, "enabled", JobSettings.APPLIED, "v1:4,v2:2"),
        Map.of(FlinkKinds.OVERRIDES, "v1:1,v2:1"),
        Map.of());
    long generation = OperatorTestSupport.get(client, "reverted").getMetadata().getGeneration();
    // Flink is never asked: the check comes before anything is changed.
    JobSampler unused =
        new JobSampler(
            new FlinkRestClient(URI.create("http://127.0.0.1:1"), Duration.ofSeconds(1)),
            "j",
            Clock.systemUTC());
    var resource =
        client
            .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
            .inNamespace(OperatorTestSupport.NS)
            .withName("reverted");
    OverridesActuator actuator =
        new OverridesActuator(resource::get, resource, unused, Duration.ofMillis(100));

    RescaleOutcome outcome =
        Rescales.run(
            actuator,
            Map.of("v1", 4, "v2", 2),
            Duration.ofSeconds(5),
            Clock.systemUTC(),
            Sleeper.SYSTEM);

    RescaleOutcome.NotApplied n = assertInstanceOf(RescaleOutcome.NotApplied.class, outcome);
    assertEquals(RescaleOutcome.Cause.CHANGED_BY_OTHERS, n.cause());
    assertTrue(n.message().startsWith("someone else changed"), n.message());
    assertEquals(
        generation,
        OperatorTestSupport.get(client, "reverted").getMetadata().getGeneration(),
        "no patch");
  }
}
