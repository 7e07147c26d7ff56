package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.policy.SlotCapacity;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * A native-mode FlinkDeployment gets the task managers its namespace's ResourceQuotas leave room
 * for: by pods, CPU and memory (requests and limits), the tightest quota deciding.
 */
class QuotaSlotsTest {
  /** Task managers of 2 slots, 1.5 CPU and 4 GiB ("4096m" in Flink's notation). */
  private static GenericKubernetesResource deployment(Map<String, Object> moreConf) {
    Map<String, Object> conf = new HashMap<>(moreConf);
    conf.put("taskmanager.numberOfTaskSlots", "2");
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("flink.apache.org/v1beta1")
        .withKind("FlinkDeployment")
        .withNewMetadata()
        .withName("orders")
        .withNamespace("team-a")
        .endMetadata()
        .withAdditionalProperties(
            Map.of(
                "spec",
                Map.of(
                    "mode",
                    "native",
                    "flinkConfiguration",
                    conf,
                    "taskManager",
                    Map.of("resource", Map.of("cpu", 1.5, "memory", "4096m")))))
        .build();
  }

  private static ResourceQuota quota(
      String name, Map<String, String> hard, Map<String, String> used) {
    Map<String, Quantity> h = new HashMap<>();
    hard.forEach((k, v) -> h.put(k, new Quantity(v)));
    Map<String, Quantity> u = new HashMap<>();
    used.forEach((k, v) -> u.put(k, new Quantity(v)));
    return new ResourceQuotaBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withHard(h)
        .endSpec()
        .withNewStatus()
        .withHard(h)
        .withUsed(u)
        .endStatus()
        .build();
  }

  @Test
  void theTightestQuotaDecidesHowManyMoreTaskManagersTheOperatorCanStart() {
    // CPU: 10 - 4 = 6 free, 4 task managers of 1.5; memory: 40Gi - 16Gi = 24Gi, 6 of 4 GiB.
    SlotCapacity c =
        QuotaSlots.of(
            deployment(Map.of()),
            List.of(
                quota(
                    "compute",
                    Map.of("requests.cpu", "10", "requests.memory", "40Gi"),
                    Map.of("requests.cpu", "4", "requests.memory", "16Gi"))),
            OptionalInt.of(6));
    assertEquals(OptionalInt.of(6 + 4 * 2), c.slots());
    assertEquals(
        "ResourceQuota compute leaves requests.cpu for 4 more task managers of 2 slots,"
            + " besides the 6 its task managers have",
        c.source());
  }

  @Test
  void limitsCountWithTheOperatorsLimitFactorAndPodsOneEach() {
    SlotCapacity c =
        QuotaSlots.of(
            deployment(Map.of("kubernetes.taskmanager.memory.limit-factor", "2")),
            List.of(
                quota("mem", Map.of("limits.memory", "40Gi"), Map.of("limits.memory", "24Gi")),
                quota("pods", Map.of("pods", "20"), Map.of("pods", "17"))),
            OptionalInt.of(4));
    // Memory: 16Gi free, 8 GiB a pod at limit factor 2: 2 more; pods: 3 more.
    assertEquals(OptionalInt.of(4 + 2 * 2), c.slots());
  }

  @Test
  void aFullQuotaLeavesTheSlotsTheJobHas() {
    SlotCapacity c =
        QuotaSlots.of(
            deployment(Map.of()),
            List.of(quota("pods", Map.of("pods", "5"), Map.of("pods", "5"))),
            OptionalInt.of(8));
    assertEquals(OptionalInt.of(8), c.slots());
  }

  @Test
  void noQuotaAScopedQuotaOrUsageNotYetComputedLimitNothing() {
    GenericKubernetesResource d = deployment(Map.of());
    assertTrue(QuotaSlots.of(d, List.of(), OptionalInt.of(4)).slots().isEmpty());
    ResourceQuota scoped = quota("be", Map.of("pods", "1"), Map.of("pods", "1"));
    scoped.getSpec().setScopes(List.of("BestEffort"));
    assertTrue(QuotaSlots.of(d, List.of(scoped), OptionalInt.of(4)).slots().isEmpty());
    assertTrue(
        QuotaSlots.of(d, List.of(quota("new", Map.of("pods", "10"), Map.of())), OptionalInt.of(4))
            .slots()
            .isEmpty());
    // Without the job's current slots nothing is known either.
    assertTrue(
        QuotaSlots.of(
                d,
                List.of(quota("pods", Map.of("pods", "5"), Map.of("pods", "1"))),
                OptionalInt.empty())
            .slots()
            .isEmpty());
  }

  @Test
  void memoryInFlinksNotationOrAsAKubernetesQuantity() {
    assertEquals(4096.0 * 1024 * 1024, QuotaSlots.bytes("4096m").getAsDouble());
    assertEquals(2.0 * 1024 * 1024 * 1024, QuotaSlots.bytes("2g").getAsDouble());
    assertEquals(2.0 * 1024 * 1024 * 1024, QuotaSlots.bytes("2Gi").getAsDouble());
    assertEquals(1024.0, QuotaSlots.bytes("1024").getAsDouble());
    assertTrue(QuotaSlots.bytes("lots").isEmpty());
  }
}
