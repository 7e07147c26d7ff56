package io.ds2.operator;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.policy.SlotCapacity;
import io.ds2.core.scaler.Actuator;
import io.ds2.core.scaler.RequestResult;
import io.ds2.core.scaler.RescaleStatus;
import io.ds2.flink.JobSampler;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Rescales through the Flink Kubernetes Operator: JSON-merge-patches only {@code
 * spec.flinkConfiguration["pipeline.jobvertex-parallelism-overrides"]} (with a resourceVersion
 * precondition, re-read on 409) plus annotations saying that ds2 wrote them, what they were before
 * and that the rescale is in flight; each observation checks that the operator has reconciled that
 * generation and Flink runs at the requested parallelism. Patches only while the Flink operator is
 * idle; an unmet rescale puts the previous overrides back. Never writes status. A spec that already
 * asks for the target is not patched again (a restarted controller does not double-scale). Reads
 * come from {@code current} (the operator's informer cache); only the patches go to the API server.
 */
public final class OverridesActuator implements Actuator {
  private static final int CONFLICT_RETRIES = 5;
  private final Supplier<GenericKubernetesResource> current;
  private final Supplier<GenericKubernetesResource> fresh;
  private final Resource<GenericKubernetesResource> resource;
  private final JobSampler flink;
  private final Duration poll;
  private long generation;
  private Supplier<SlotCapacity> clusterSlots = SlotCapacity::unknown;
  private Supplier<SlotCapacity> onDemandSlots = SlotCapacity::unknown;

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

  /** How a session job's cluster says how many slots the job can get (its REST API). */
  OverridesActuator withClusterSlots(Supplier<SlotCapacity> slots) {
    this.clusterSlots = slots;
    return this;
  }

  /** How a native-mode deployment says how many slots the job can get (its namespace's quotas). */
  OverridesActuator withOnDemandSlots(Supplier<SlotCapacity> slots) {
    this.onDemandSlots = slots;
    return this;
  }

  /** See {@link DeploymentSlots#of}. */
  @Override
  public SlotCapacity capacity() {
    GenericKubernetesResource r = current.get();
    return r == null ? SlotCapacity.unknown() : DeploymentSlots.of(r, clusterSlots, onDemandSlots);
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
    if (r == null) {
      return new RequestResult.Refused("the resource was deleted");
    }
    Optional<String> changedByOthers = changedByOthers(r);
    if (changedByOthers.isPresent()) {
      return new RequestResult.ChangedByOthers(changedByOthers.get());
    }
    Optional<String> busy = FlinkOperatorBusy.of(r);
    if (busy.isPresent()) {
      return new RequestResult.Busy(busy.get());
    }
    try {
      generation = patch(wanted);
    } catch (Contested c) {
      return new RequestResult.ChangedByOthers(c.getMessage());
    } catch (KubernetesClientException e) {
      String failed =
          "cannot patch " + FlinkKinds.OVERRIDES + ": HTTP " + e.getCode() + " " + e.getMessage();
      if (!mayHaveApplied(e)) {
        return new RequestResult.Refused(failed);
      }
      // No answer (a timeout, a 5xx from a proxy or etcd): the API server may have applied it.
      Optional<GenericKubernetesResource> now = reRead();
      if (now.isPresent() && wanted.equals(overrides(now.get()))) {
        generation = now.get().getMetadata().getGeneration();
        return new RequestResult.Accepted(new TreeMap<>(target));
      }
      return new RequestResult.Unanswered(failed + "; the patch may still be applied");
    }
    return new RequestResult.Accepted(new TreeMap<>(target));
  }

  /** A failure after which the server may still have applied the patch. */
  private static boolean mayHaveApplied(KubernetesClientException e) {
    int code = e.getCode();
    return code <= 0 || code == 500 || code == 502 || code == 503 || code == 504;
  }

  private Optional<GenericKubernetesResource> reRead() {
    try {
      return Optional.ofNullable(fresh.get());
    } catch (KubernetesClientException e) {
      return Optional.empty();
    }
  }

  private static String overrides(GenericKubernetesResource r) {
    Object o = FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES);
    return o == null ? null : o.toString();
  }

  /** Someone else changed the overrides between ds2's read and its patch (seen after a 409). */
  private static final class Contested extends RuntimeException {
    Contested(String message) {
      super(message, null, false, false);
    }
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

  /**
   * Patches the overrides to {@code wanted}, recording in the same write that ds2 set them ({@code
   * applied-overrides}: never mistaken for someone else's change later, whatever becomes of the
   * rescale) and what they were before ({@code previous-overrides}: what an unmet rescale puts
   * back, also after a restart).
   *
   * @throws Contested if, after a conflict, the fresh copy shows someone else's overrides
   */
  long patch(String wanted) {
    for (int attempt = 0; ; attempt++) {
      // The first attempt works on the cached copy; after a conflict only a fresh read helps.
      GenericKubernetesResource r = attempt == 0 ? current.get() : fresh.get();
      if (r == null) {
        throw new KubernetesClientException("the resource was deleted", 404, null);
      }
      String before = overrides(r);
      if (wanted.equals(before)) {
        return r.getMetadata().getGeneration(); // already asked for: do not bump it again
      }
      if (attempt > 0) {
        Optional<String> changed = changedByOthers(r);
        if (changed.isPresent()) {
          throw new Contested(changed.get());
        }
      }
      ObjectNode patch = JsonNodeFactory.instance.objectNode();
      ObjectNode metadata = patch.putObject("metadata");
      metadata.put("resourceVersion", r.getMetadata().getResourceVersion());
      ObjectNode annotations = metadata.putObject("annotations");
      annotations.put(JobSettings.IN_FLIGHT, wanted);
      annotations.put(JobSettings.APPLIED, wanted);
      annotations.put(JobSettings.PREVIOUS, before == null ? "" : before);
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
        // Someone else wrote in between: the next attempt re-reads, checks, and tries again.
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
    boolean reconciled = observed >= generation && FlinkOperatorBusy.SETTLED.contains(lifecycle);
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

  /**
   * Puts the overrides back to what they were before the request (an unmet target left in the spec
   * would be deployed at the next upgrade, by surprise), unless someone else changed them since.
   */
  @Override
  public String abandon(Map<String, Integer> wanted, RescaleStatus.Pending last, Duration timeout) {
    String unmet = "after " + timeout.toSeconds() + " s still waiting for " + last.waitingFor();
    return unmet + "; " + putBack(Overrides.render(wanted));
  }

  private String putBack(String wanted) {
    for (int attempt = 0; ; attempt++) {
      GenericKubernetesResource r;
      try {
        // Read from the server, not the cache: whether someone changed the overrides meanwhile
        // decides between putting them back and leaving them; a rollback is rare, a read cheap.
        r = fresh.get();
      } catch (KubernetesClientException e) {
        return "the previous overrides could not be read back (HTTP " + e.getCode() + ")";
      }
      if (r == null) {
        return "the resource is gone";
      }
      if (!wanted.equals(overrides(r))) {
        return "the overrides were changed by someone else meanwhile; left as they are";
      }
      Map<String, String> a = r.getMetadata().getAnnotations();
      String previous = a == null ? null : a.get(JobSettings.PREVIOUS);
      if (previous == null) {
        return "what the overrides were before is not recorded; left at '" + wanted + "'";
      }
      ObjectNode patch = JsonNodeFactory.instance.objectNode();
      ObjectNode metadata = patch.putObject("metadata");
      metadata.put("resourceVersion", r.getMetadata().getResourceVersion());
      ObjectNode annotations = metadata.putObject("annotations");
      annotations.putNull(JobSettings.IN_FLIGHT);
      annotations.putNull(JobSettings.PREVIOUS);
      ObjectNode conf = patch.putObject("spec").putObject("flinkConfiguration");
      if (previous.isEmpty()) {
        annotations.putNull(JobSettings.APPLIED);
        conf.putNull(FlinkKinds.OVERRIDES);
      } else {
        annotations.put(JobSettings.APPLIED, previous);
        conf.put(FlinkKinds.OVERRIDES, previous);
      }
      try {
        resource.patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
        return previous.isEmpty()
            ? "overrides removed, as they were before"
            : "previous overrides '" + previous + "' put back";
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= CONFLICT_RETRIES) {
          return "putting the previous overrides back failed (HTTP " + e.getCode() + ")";
        }
      }
    }
  }

  private void markApplied(String wanted) {
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    ObjectNode annotations = patch.putObject("metadata").putObject("annotations");
    annotations.putNull(JobSettings.IN_FLIGHT);
    annotations.putNull(JobSettings.PREVIOUS);
    annotations.put(JobSettings.APPLIED, wanted);
    try {
      resource.patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
    } catch (KubernetesClientException e) {
      // Harmless if left: it only makes a restarted controller re-check an applied rescale.
    }
  }
}
