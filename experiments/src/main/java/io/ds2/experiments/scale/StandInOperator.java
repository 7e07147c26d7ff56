package io.ds2.experiments.scale;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.operator.FlinkKinds;
import io.ds2.testkit.FluidJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The Flink Kubernetes Operator's part for the fleet: when a FlinkDeployment's parallelism
 * overrides change, it rescales the simulated job in place and marks the generation reconciled
 * through the status subresource, as the real operator does.
 */
final class StandInOperator implements AutoCloseable {
  private final KubernetesClient client;
  private final Function<String, FluidJob> jobs;
  private final SharedIndexInformer<GenericKubernetesResource> informer;
  private final ExecutorService patches = Executors.newFixedThreadPool(2);

  /**
   * @param jobs the simulated job of a resource, by resource name (null once removed)
   */
  StandInOperator(KubernetesClient client, String namespace, Function<String, FluidJob> jobs) {
    this.client = client;
    this.jobs = jobs;
    this.informer =
        client
            .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
            .inNamespace(namespace)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource r) {
                    reconcile(r);
                  }

                  @Override
                  public void onUpdate(GenericKubernetesResource o, GenericKubernetesResource r) {
                    reconcile(r);
                  }

                  @Override
                  public void onDelete(GenericKubernetesResource r, boolean unknown) {}
                });
  }

  private void reconcile(GenericKubernetesResource r) {
    long generation = r.getMetadata().getGeneration();
    long observed =
        FlinkKinds.string(r, "status", "observedGeneration").map(Long::parseLong).orElse(0L);
    FluidJob job = jobs.apply(r.getMetadata().getName());
    if (observed >= generation || job == null) {
      return;
    }
    Object overrides = FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES);
    patches.submit(
        () -> {
          if (overrides != null) {
            Map<String, Integer> wanted = new HashMap<>(job.parallelism());
            for (String pair : overrides.toString().split(",")) {
              String[] kv = pair.split(":");
              wanted.put(kv[0], Integer.parseInt(kv[1]));
            }
            job.rescale(wanted, System.currentTimeMillis());
          }
          client
              .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
              .inNamespace(r.getMetadata().getNamespace())
              .withName(r.getMetadata().getName())
              .subresource("status")
              .patch(PatchContext.of(PatchType.JSON_MERGE), statusPatch(generation, job.id()));
        });
  }

  /** A reconciled, running job's status as the Flink operator writes it, as a merge patch. */
  static String statusPatch(long observedGeneration, String jobId) {
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    ObjectNode status = patch.putObject("status");
    status.put("observedGeneration", observedGeneration).put("lifecycleState", "STABLE");
    status.putObject("jobStatus").put("jobId", jobId).put("state", "RUNNING");
    return patch.toString();
  }

  @Override
  public void close() {
    informer.close();
    patches.shutdownNow();
  }
}
