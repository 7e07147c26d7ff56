package io.ds2.operator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.flink.FlinkRestClient;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test stand-in for the Flink Kubernetes Operator: when a FlinkDeployment's parallelism overrides
 * change, it does what the real operator does in place (PUT the resource requirements through
 * Flink's REST API, without waiting) and then marks the new generation reconciled.
 */
public final class StandInFlinkOperator implements AutoCloseable {
  private final KubernetesClient client;
  private final FlinkRestClient flink;
  private final String jobId;
  private final SharedIndexInformer<GenericKubernetesResource> informer;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  final AtomicInteger applied = new AtomicInteger();
  private volatile boolean paused;
  private volatile boolean refusing;
  private volatile boolean onlyItsJob;

  public StandInFlinkOperator(
      KubernetesClient client, String namespace, FlinkRestClient flink, String jobId) {
    this.client = client;
    this.flink = flink;
    this.jobId = jobId;
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

  /** While paused the stand-in reconciles nothing (an operator that is slow or down). */
  public void pause(boolean paused) {
    this.paused = paused;
  }

  /**
   * While refusing, a new generation is marked reconciled but the job keeps its parallelism (an
   * upgrade that did not take: no resources for it, or a job that fell back to its old plan).
   */
  public void refuse(boolean refusing) {
    this.refusing = refusing;
  }

  /** Reconciles only the resource whose status names this stand-in's job (many jobs, one each). */
  public StandInFlinkOperator onlyItsJob() {
    this.onlyItsJob = true;
    return this;
  }

  /** The overrides it applied to the job so far. */
  public int applied() {
    return applied.get();
  }

  /** Reconciles a resource now, as the real operator's periodic reconcile would. */
  public void reconcileNow(String namespace, String name) {
    reconcile(
        client
            .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
            .inNamespace(namespace)
            .withName(name)
            .get());
  }

  private synchronized void reconcile(GenericKubernetesResource r) {
    if (r == null) {
      return;
    }
    long generation = r.getMetadata().getGeneration();
    long observed =
        FlinkKinds.string(r, "status", "observedGeneration").map(Long::parseLong).orElse(0L);
    if (paused
        || observed >= generation
        || (onlyItsJob
            && !jobId.equals(FlinkKinds.string(r, "status", "jobStatus", "jobId").orElse("")))) {
      return;
    }
    Object overrides = FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES);
    if (overrides != null && !refusing) {
      JsonNode req = flink.get("/jobs/" + jobId + "/resource-requirements", JsonNode.class);
      Map<String, Integer> wanted = new HashMap<>();
      for (String pair : overrides.toString().split(",")) {
        String[] kv = pair.split(":");
        wanted.put(kv[0], Integer.parseInt(kv[1]));
      }
      ObjectNode body = ((ObjectNode) req).deepCopy();
      wanted.forEach(
          (vid, p) -> {
            ObjectNode par = (ObjectNode) body.get(vid).get("parallelism");
            par.put("upperBound", p);
            par.put("lowerBound", Math.min(p, par.get("lowerBound").asInt()));
          });
      flink.put("/jobs/" + jobId + "/resource-requirements", body);
      applied.incrementAndGet();
    }
    // Only status, through the status subresource, as the real operator writes it: never a
    // whole (possibly stale) object that could undo metadata written meanwhile.
    String patch;
    try {
      patch = MAPPER.writeValueAsString(Map.of("status", status(generation, jobId)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    client
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(r.getMetadata().getNamespace())
        .withName(r.getMetadata().getName())
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }

  public static Map<String, Object> status(long observedGeneration, String jobId) {
    return Map.of(
        "observedGeneration",
        observedGeneration,
        "lifecycleState",
        "STABLE",
        "jobManagerDeploymentStatus",
        "READY",
        "reconciliationStatus",
        Map.of("state", "DEPLOYED"),
        "jobStatus",
        Map.of("jobId", jobId, "state", "RUNNING"));
  }

  @Override
  public void close() {
    informer.close();
  }
}
