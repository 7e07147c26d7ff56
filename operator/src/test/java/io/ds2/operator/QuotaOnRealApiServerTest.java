package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.testkit.FluidJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A native-mode FlinkDeployment in a namespace whose ResourceQuota leaves room for one more task
 * manager pod: ds2, as the chart's service account, reads the quota and asks for no more slots than
 * the job's task managers have plus that one, with a ScalingLimited event naming the quota. (The
 * test server runs no quota controller: the quota's usage is written as it would compute it.)
 */
class QuotaOnRealApiServerTest extends RealApiServerBase {
  @AfterEach
  void deleteQuota() {
    kube.admin().resourceQuotas().inNamespace(NS).withName("team-pods").delete();
    flink.slotsTotal(100_000);
  }

  @Test
  void aJobAsksForNoMoreThanItsNamespacesQuotaLeaves() {
    ResourceQuota q =
        kube.admin()
            .resource(
                new ResourceQuotaBuilder()
                    .withNewMetadata()
                    .withName("team-pods")
                    .withNamespace(NS)
                    .endMetadata()
                    .withNewSpec()
                    .withHard(Map.of("pods", new Quantity("3")))
                    .endSpec()
                    .build())
            .create();
    q.setStatus(
        new io.fabric8.kubernetes.api.model.ResourceQuotaStatusBuilder()
            .withHard(Map.of("pods", new Quantity("3")))
            .withUsed(Map.of("pods", new Quantity("2")))
            .build());
    kube.admin().resource(q).updateStatus();
    // The job's one task manager has 1 slot; the quota leaves room for 1 more: 2 slots in all.
    flink.slotsTotal(1);
    FluidJob job = job(); // needs Parse 4 and Sink 3
    deployment("quota", job, annotations(Map.of()), Map.of("taskmanager.numberOfTaskSlots", "1"));
    try (Ds2Operator ds2 = operator(chartServiceAccount());
        StandInFlinkOperator standIn = flinkOperator(job)) {
      ds2.start();
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(
              () ->
                  events("quota", "ScalingLimited").stream()
                      .anyMatch(e -> e.getMessage().contains("ResourceQuota team-pods")));
      GenericKubernetesResource r = OperatorTestSupport.get(kube.admin(), "quota");
      String overrides = String.valueOf(FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES));
      for (String pair : overrides.split(",")) {
        if (pair.contains(":")) {
          assertTrue(Integer.parseInt(pair.split(":")[1]) <= 2, overrides);
        }
      }
      assertTrue(
          job.parallelism().values().stream().allMatch(p -> p <= 2), job.parallelism().toString());
    }
  }
}
