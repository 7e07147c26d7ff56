package io.ds2.operator;

import io.ds2.core.policy.SlotCapacity;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.function.Supplier;

/** How many slots a Flink resource's job can get, as its spec and its cluster say. */
final class DeploymentSlots {
  private DeploymentSlots() {}

  /** As {@link #of(GenericKubernetesResource, Supplier, Supplier)}, native mode unlimited. */
  static SlotCapacity of(GenericKubernetesResource r, Supplier<SlotCapacity> clusterSlots) {
    return of(r, clusterSlots, SlotCapacity::unknown);
  }

  /**
   * A FlinkDeployment in standalone mode runs the task managers its spec names and no more; in
   * native mode the Flink operator starts as many as the parallelism needs, as far as the
   * namespace's quotas let it ({@code onDemandSlots}, see {@link QuotaSlots}). A session job gets
   * what its session cluster has free ({@code clusterSlots}).
   */
  static SlotCapacity of(
      GenericKubernetesResource r,
      Supplier<SlotCapacity> clusterSlots,
      Supplier<SlotCapacity> onDemandSlots) {
    if ("FlinkSessionJob".equals(r.getKind())) {
      return clusterSlots.get();
    }
    if (!"standalone".equalsIgnoreCase(FlinkKinds.string(r, "spec", "mode").orElse("native"))) {
      return onDemandSlots.get();
    }
    try {
      int replicas =
          Integer.parseInt(FlinkKinds.string(r, "spec", "taskManager", "replicas").orElse("1"));
      Object perTm = FlinkKinds.flinkConfiguration(r).get("taskmanager.numberOfTaskSlots");
      int slots = perTm == null ? 1 : Integer.parseInt(perTm.toString().trim());
      return SlotCapacity.of(
          replicas * slots,
          "standalone mode: spec.taskManager.replicas "
              + replicas
              + " x taskmanager.numberOfTaskSlots "
              + slots);
    } catch (NumberFormatException e) {
      return SlotCapacity.unknown();
    }
  }
}
