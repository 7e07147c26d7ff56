package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.policy.SlotCapacity;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The slots a Flink resource's job can get, by its mode. */
class DeploymentSlotsTest {
  private static GenericKubernetesResource resource(String kind, Map<String, Object> spec) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("flink.apache.org/v1beta1")
        .withKind(kind)
        .withNewMetadata()
        .withName("orders")
        .withNamespace("team-a")
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", spec))
        .build();
  }

  @Test
  void standaloneModeRunsTheTaskManagersItsSpecNamesAndNoMore() {
    SlotCapacity c =
        DeploymentSlots.of(
            resource(
                "FlinkDeployment",
                Map.of(
                    "mode", "standalone",
                    "taskManager", Map.of("replicas", 3),
                    "flinkConfiguration", Map.of("taskmanager.numberOfTaskSlots", "4"))),
            SlotCapacity::unknown);
    assertEquals(OptionalInt.of(12), c.slots());
    assertEquals(
        "standalone mode: spec.taskManager.replicas 3 x taskmanager.numberOfTaskSlots 4",
        c.source());
  }

  @Test
  void nativeModeStartsTaskManagersOnDemandAsFarAsItsQuotasLetIt() {
    assertTrue(
        DeploymentSlots.of(resource("FlinkDeployment", Map.of()), SlotCapacity::unknown)
            .slots()
            .isEmpty());
    SlotCapacity quotas = SlotCapacity.of(14, "ResourceQuota compute leaves ...");
    assertEquals(
        quotas,
        DeploymentSlots.of(
            resource("FlinkDeployment", Map.of()), SlotCapacity::unknown, () -> quotas));
  }

  @Test
  void aSessionJobGetsWhatItsSessionClusterHasFree() {
    SlotCapacity cluster = SlotCapacity.of(5, "the cluster's 3 free slots and the 2 the job holds");
    assertEquals(
        cluster,
        DeploymentSlots.of(
            resource("FlinkSessionJob", Map.of("deploymentName", "session")), () -> cluster));
  }
}
