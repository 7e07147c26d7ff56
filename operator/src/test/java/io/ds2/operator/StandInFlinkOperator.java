package io.ds2.operator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.flink.FlinkRestClient;
import io.ds2.testkit.FluidJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The one stand-in for the Flink Kubernetes Operator, for tests and benchmarks: when a
 * FlinkDeployment's parallelism overrides change, it does what the real operator does in place and
 * then marks the new generation reconciled through the status subresource. For a real job (a
 * MiniCluster) it PUTs the resource requirements through Flink's REST API, without waiting; for a
 * fleet of simulated jobs it rescales each resource's job directly, on a small pool.
 */
public final class StandInFlinkOperator implements AutoCloseable {
  /** The job a resource runs, and how to apply overrides to it. */
  private record Target(String jobId, Consumer<Map<String, Integer>> rescale) {}

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final KubernetesClient client;
  private final Function<GenericKubernetesResource, Optional<Target>> targets;
  private final Executor reconciles;
  private final Optional<ExecutorService> pool;
  private final SharedIndexInformer<GenericKubernetesResource> informer;
  // One reconcile of a resource at a time (the informer's and reconcileNow's).
  private final Map<String, Object> locks = new ConcurrentHashMap<>();
  final AtomicInteger applied = new AtomicInteger();
  private volatile boolean paused;
  private volatile boolean refusing;
  private volatile boolean onlyItsJob;

  /** For one real job: overrides go to Flink's REST API as resource requirements. */
  public StandInFlinkOperator(
      KubernetesClient client, String namespace, FlinkRestClient flink, String jobId) {
    this(
        client,
        namespace,
        r -> Optional.of(new Target(jobId, wanted -> putRequirements(flink, jobId, wanted))),
        Optional.empty());
  }

  /**
   * For a fleet of simulated jobs: a resource's job by its name (null once removed), rescaled in
   * place; reconciles run on two threads so a thousand resources do not queue on the informer's.
   */
  public static StandInFlinkOperator forFleet(
      KubernetesClient client, String namespace, Function<String, FluidJob> jobs) {
    return new StandInFlinkOperator(
        client,
        namespace,
        r ->
            Optional.ofNullable(jobs.apply(r.getMetadata().getName()))
                .map(
                    job ->
                        new Target(
                            job.id(),
                            wanted -> {
                              Map<String, Integer> all = new HashMap<>(job.parallelism());
                              all.putAll(wanted);
                              job.rescale(all, System.currentTimeMillis());
                            })),
        Optional.of(Executors.newFixedThreadPool(2)));
  }

  private StandInFlinkOperator(
      KubernetesClient client,
      String namespace,
      Function<GenericKubernetesResource, Optional<Target>> targets,
      Optional<ExecutorService> pool) {
    this.client = client;
    this.targets = targets;
    this.pool = pool;
    this.reconciles = pool.<Executor>map(p -> p).orElse(Runnable::run);
    this.informer =
        client
            .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
            .inNamespace(namespace)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource r) {
                    reconciles.execute(() -> reconcile(r));
                  }

                  @Override
                  public void onUpdate(GenericKubernetesResource o, GenericKubernetesResource r) {
                    reconciles.execute(() -> reconcile(r));
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

  private void reconcile(GenericKubernetesResource r) {
    if (r == null) {
      return;
    }
    String key = r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
    synchronized (locks.computeIfAbsent(key, k -> new Object())) {
      reconcileLocked(r);
    }
  }

  private void reconcileLocked(GenericKubernetesResource r) {
    Optional<Target> target = targets.apply(r);
    long generation = r.getMetadata().getGeneration();
    long observed =
        FlinkKinds.string(r, "status", "observedGeneration").map(Long::parseLong).orElse(0L);
    if (paused
        || target.isEmpty()
        || observed >= generation
        || (onlyItsJob
            && !target
                .get()
                .jobId()
                .equals(FlinkKinds.string(r, "status", "jobStatus", "jobId").orElse("")))) {
      return;
    }
    Object overrides = FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES);
    if (overrides != null && !refusing) {
      Map<String, Integer> wanted = new HashMap<>();
      for (String pair : overrides.toString().split(",")) {
        String[] kv = pair.split(":");
        wanted.put(kv[0], Integer.parseInt(kv[1]));
      }
      target.get().rescale().accept(wanted);
      applied.incrementAndGet();
    }
    client
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(r.getMetadata().getNamespace())
        .withName(r.getMetadata().getName())
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE), statusPatch(generation, target.get().jobId()));
  }

  /**
   * What the real operator does in place: the job's resource requirements, through Flink's REST.
   */
  private static void putRequirements(
      FlinkRestClient flink, String jobId, Map<String, Integer> wanted) {
    JsonNode req = flink.get("/jobs/" + jobId + "/resource-requirements", JsonNode.class);
    ObjectNode body = ((ObjectNode) req).deepCopy();
    wanted.forEach(
        (vid, p) -> {
          ObjectNode par = (ObjectNode) body.get(vid).get("parallelism");
          par.put("upperBound", p);
          par.put("lowerBound", Math.min(p, par.get("lowerBound").asInt()));
        });
    flink.put("/jobs/" + jobId + "/resource-requirements", body);
  }

  /**
   * A reconciled, running job's status as the Flink operator writes it, as a merge patch: only
   * status, through the status subresource, never a whole (possibly stale) object that could undo
   * metadata written meanwhile.
   */
  public static String statusPatch(long observedGeneration, String jobId) {
    try {
      return MAPPER.writeValueAsString(Map.of("status", status(observedGeneration, jobId)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
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
    pool.ifPresent(ExecutorService::shutdownNow);
  }
}
