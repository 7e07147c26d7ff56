package io.ds2.controller.k8s;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.flink.JobSampler;
import io.ds2.model.scaler.Actuator;
import io.ds2.model.scaler.RequestResult;
import io.ds2.model.scaler.RescaleStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Rescales through the Flink Kubernetes Operator: JSON-merge-patches only {@code
 * spec.flinkConfiguration["pipeline.jobvertex-parallelism-overrides"]} (with a resourceVersion
 * precondition, re-read on 409) plus an in-flight marker annotation; each observation checks that
 * the operator has reconciled that generation and Flink runs at the requested parallelism. Never
 * writes status. A spec that already asks for the target is not patched again (a restarted
 * controller does not double-scale). Reads come from {@code current} (the operator's informer
 * cache); only the patches go to the API server.
 */
public final class OverridesActuator implements Actuator {
  private static final int CONFLICT_RETRIES = 5;
  private static final Set<String> RECONCILED = Set.of("STABLE", "DEPLOYED");
  private final Supplier<GenericKubernetesResource> current;
  private final Supplier<GenericKubernetesResource> fresh;
  private final Resource<GenericKubernetesResource> resource;
  private final JobSampler flink;
  private final Duration poll;
  private long generation;

  /**
   * @param current the resource as last seen (null once deleted)
   * @param resource where patches go
   */
  public OverridesActuator(
      Supplier<GenericKubernetesResource> current,
      Resource<GenericKubernetesResource> resource,
      JobSampler flink,
      Duration poll) {
    this(current, resource::get, resource, flink, poll);
  }

  /**
   * @param fresh reads the resource from the API server, after a conflict
   */
  OverridesActuator(
      Supplier<GenericKubernetesResource> current,
      Supplier<GenericKubernetesResource> fresh,
      Resource<GenericKubernetesResource> resource,
      JobSampler flink,
      Duration poll) {
    this.current = current;
    this.fresh = fresh;
    this.resource = resource;
    this.flink = flink;
    this.poll = poll;
  }

  /** {@code vid:p,vid:p}, sorted by vertex id so equal requests compare equal. */
  public static String overrides(Map<String, Integer> parallelism) {
    return Overrides.render(parallelism);
  }

  @Override
  public Duration pollInterval() {
    return poll;
  }

  @Override
  public RequestResult request(Map<String, Integer> target) {
    String wanted = Overrides.render(target);
    GenericKubernetesResource r = current.get();
    Optional<String> changedByOthers = r == null ? Optional.empty() : changedByOthers(r);
    if (changedByOthers.isPresent()) {
      return new RequestResult.ChangedByOthers(changedByOthers.get());
    }
    try {
      generation = patch(wanted);
    } catch (KubernetesClientException e) {
      return new RequestResult.Refused(
          "cannot patch " + FlinkKinds.OVERRIDES + ": HTTP " + e.getCode() + " " + e.getMessage());
    }
    return new RequestResult.Accepted(new TreeMap<>(target));
  }

  /**
   * A rescale requested earlier (e.g. by a previous controller instance) that was not seen through:
   * the in-flight marker names the overrides the spec still asks for.
   */
  @Override
  public Optional<Map<String, Integer>> inFlight() {
    GenericKubernetesResource r = current.get();
    if (r == null || r.getMetadata().getAnnotations() == null) {
      return Optional.empty();
    }
    String inFlight = r.getMetadata().getAnnotations().get(JobSettings.IN_FLIGHT);
    Object overrides = FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES);
    if (inFlight == null || !inFlight.equals(overrides)) {
      return Optional.empty();
    }
    generation = r.getMetadata().getGeneration();
    return Overrides.parse(inFlight);
  }

  /**
   * The overrides no longer are what ds2 last applied: someone (GitOps, a person) changed them. ds2
   * does not patch them back; removing the annotation {@code ds2.io/applied-overrides} hands the
   * job back to ds2.
   */
  private static Optional<String> changedByOthers(GenericKubernetesResource r) {
    if (r.getMetadata().getAnnotations() == null) {
      return Optional.empty();
    }
    String applied = r.getMetadata().getAnnotations().get(JobSettings.APPLIED);
    Object now = FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES);
    if (applied == null || applied.equals(now)) {
      return Optional.empty();
    }
    return Optional.of(
        "someone else changed "
            + FlinkKinds.OVERRIDES
            + " from '"
            + applied
            + "' (set by ds2) to '"
            + now
            + "'; not patching it back (remove the annotation "
            + JobSettings.APPLIED
            + " to hand the job back to ds2)");
  }

  long patch(String wanted) {
    for (int attempt = 0; ; attempt++) {
      // The first attempt works on the cached copy; after a conflict only a fresh read helps.
      GenericKubernetesResource r = attempt == 0 ? current.get() : fresh.get();
      if (r == null) {
        throw new KubernetesClientException("the resource was deleted", 404, null);
      }
      if (wanted.equals(FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES))) {
        return r.getMetadata().getGeneration(); // already asked for: do not bump it again
      }
      ObjectNode patch = JsonNodeFactory.instance.objectNode();
      ObjectNode metadata = patch.putObject("metadata");
      metadata.put("resourceVersion", r.getMetadata().getResourceVersion());
      metadata.putObject("annotations").put(JobSettings.IN_FLIGHT, wanted);
      patch.putObject("spec").putObject("flinkConfiguration").put(FlinkKinds.OVERRIDES, wanted);
      try {
        return resource
            .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString())
            .getMetadata()
            .getGeneration();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= CONFLICT_RETRIES) {
          throw e;
        }
        // Someone else wrote in between: the next attempt re-reads and tries again.
      }
    }
  }

  @Override
  public RescaleStatus observe(Map<String, Integer> target) {
    String wanted = Overrides.render(target);
    GenericKubernetesResource r = current.get();
    if (r == null) {
      return new RescaleStatus.Failed("the resource was deleted while rescaling");
    }
    Optional<Map<String, Integer>> running = flink.runningParallelism();
    if (r.getMetadata().getGeneration() != null && r.getMetadata().getGeneration() < generation) {
      // The cache has not seen ds2's own patch yet: nothing to judge the spec by.
      return new RescaleStatus.Pending(
          running.isPresent(),
          running.orElse(Map.of()),
          "the informer to see generation " + generation);
    }
    Object now = FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES);
    if (!wanted.equals(now)) {
      return new RescaleStatus.ChangedByOthers(
          "someone else changed "
              + FlinkKinds.OVERRIDES
              + " to '"
              + now
              + "' after ds2 set '"
              + wanted
              + "'; not fighting over it");
    }
    long observed =
        FlinkKinds.string(r, "status", "observedGeneration").map(Long::parseLong).orElse(0L);
    String lifecycle = FlinkKinds.string(r, "status", "lifecycleState").orElse("?");
    boolean reconciled = observed >= generation && RECONCILED.contains(lifecycle);
    if (reconciled && running.isPresent() && running.get().equals(new TreeMap<>(target))) {
      markApplied(wanted);
      return new RescaleStatus.Applied(target);
    }
    String waitingFor =
        reconciled
            ? "Flink to run at "
                + wanted
                + " (runs "
                + running.map(Object::toString).orElse("not all RUNNING")
                + ")"
            : "the Flink operator to reconcile generation "
                + generation
                + " (observed "
                + observed
                + ", lifecycle "
                + lifecycle
                + ")";
    return new RescaleStatus.Pending(running.isPresent(), running.orElse(Map.of()), waitingFor);
  }

  @Override
  public String abandon(Map<String, Integer> wanted, RescaleStatus.Pending last, Duration timeout) {
    return "after " + timeout.toSeconds() + " s still waiting for " + last.waitingFor();
  }

  private void markApplied(String wanted) {
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    ObjectNode annotations = patch.putObject("metadata").putObject("annotations");
    annotations.putNull(JobSettings.IN_FLIGHT);
    annotations.put(JobSettings.APPLIED, wanted);
    try {
      resource.patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
    } catch (KubernetesClientException e) {
      // Harmless if left: it only makes a restarted controller re-check an applied rescale.
    }
  }
}
