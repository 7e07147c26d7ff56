package io.ds2.controller.k8s;

import io.ds2.controller.loop.ControlLoop;
import io.ds2.flink.JobSampler;
import io.ds2.flink.RescaleOutcome;
import io.ds2.flink.WindowCollector;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Rescales through the Flink Kubernetes Operator: JSON-merge-patches only {@code
 * spec.flinkConfiguration["pipeline.jobvertex-parallelism-overrides"]} (with a resourceVersion
 * precondition, re-read on 409) plus an in-flight marker annotation, then waits until the operator
 * has reconciled that generation and Flink runs at the requested parallelism. Never writes status.
 * A spec that already asks for the target is not patched again (a restarted controller does not
 * double-scale).
 */
public final class OverridesActuator implements ControlLoop.Actuator {
  private static final int CONFLICT_RETRIES = 5;
  private static final Set<String> RECONCILED = Set.of("STABLE", "DEPLOYED");
  private final Resource<GenericKubernetesResource> resource;
  private final JobSampler flink;
  private final Clock clock;
  private final WindowCollector.Sleeper sleeper;
  private final Duration poll;

  public OverridesActuator(
      KubernetesClient client,
      ResourceDefinitionContext kind,
      String namespace,
      String name,
      JobSampler flink,
      Clock clock,
      WindowCollector.Sleeper sleeper,
      Duration poll) {
    this.resource = client.genericKubernetesResources(kind).inNamespace(namespace).withName(name);
    this.flink = flink;
    this.clock = clock;
    this.sleeper = sleeper;
    this.poll = poll;
  }

  /** {@code vid:p,vid:p}, sorted by vertex id so equal requests compare equal. */
  public static String overrides(Map<String, Integer> parallelism) {
    return new TreeMap<>(parallelism)
        .entrySet().stream()
            .map(e -> e.getKey() + ":" + e.getValue())
            .collect(Collectors.joining(","));
  }

  @Override
  public RescaleOutcome rescale(String jobId, Map<String, Integer> target, Duration timeout)
      throws InterruptedException {
    String wanted = overrides(target);
    Instant start = clock.instant();
    Optional<String> changedByOthers = changedByOthers();
    if (changedByOthers.isPresent()) {
      return new RescaleOutcome.NotApplied(target, Map.of(), changedByOthers.get());
    }
    long generation;
    try {
      generation = patch(wanted, start);
    } catch (KubernetesClientException e) {
      return new RescaleOutcome.Failed(
          "cannot patch " + FlinkKinds.OVERRIDES + ": HTTP " + e.getCode() + " " + e.getMessage());
    }
    return await(wanted, target, generation, start, timeout);
  }

  /**
   * Waits for a rescale requested earlier (e.g. by a previous controller instance): the in-flight
   * marker names its overrides.
   */
  public Optional<RescaleOutcome> awaitInFlight(Duration timeout) throws InterruptedException {
    GenericKubernetesResource r = resource.get();
    if (r == null || r.getMetadata().getAnnotations() == null) {
      return Optional.empty();
    }
    String inFlight = r.getMetadata().getAnnotations().get(JobSettings.IN_FLIGHT);
    String current = String.valueOf(FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES));
    if (inFlight == null || !inFlight.equals(current)) {
      return Optional.empty();
    }
    Map<String, Integer> target = new TreeMap<>();
    for (String pair : inFlight.split(",")) {
      String[] kv = pair.split(":");
      target.put(kv[0], Integer.parseInt(kv[1]));
    }
    return Optional.of(
        await(inFlight, target, r.getMetadata().getGeneration(), clock.instant(), timeout));
  }

  /**
   * The overrides no longer are what ds2 last applied: someone (GitOps, a person) changed them. ds2
   * does not patch them back; removing the annotation {@code ds2.io/applied-overrides} hands the
   * job back to ds2.
   */
  private Optional<String> changedByOthers() {
    GenericKubernetesResource r = resource.get();
    if (r == null || r.getMetadata().getAnnotations() == null) {
      return Optional.empty();
    }
    String applied = r.getMetadata().getAnnotations().get(JobSettings.APPLIED);
    Object current = FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES);
    if (applied == null || applied.equals(current)) {
      return Optional.empty();
    }
    return Optional.of(
        "someone else changed "
            + FlinkKinds.OVERRIDES
            + " from '"
            + applied
            + "' (set by ds2) to '"
            + current
            + "'; not patching it back (remove the annotation "
            + JobSettings.APPLIED
            + " to hand the job back to ds2)");
  }

  long patch(String wanted, Instant now) throws InterruptedException {
    for (int attempt = 0; ; attempt++) {
      GenericKubernetesResource r = resource.get();
      if (r == null) {
        throw new KubernetesClientException("the resource was deleted", 404, null);
      }
      if (wanted.equals(FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES))) {
        return r.getMetadata().getGeneration(); // already asked for: do not bump it again
      }
      String json =
          "{\"metadata\":{\"resourceVersion\":\""
              + r.getMetadata().getResourceVersion()
              + "\","
              + "\"annotations\":{\""
              + JobSettings.IN_FLIGHT
              + "\":\""
              + wanted
              + "\"}},"
              + "\"spec\":{\"flinkConfiguration\":{\""
              + FlinkKinds.OVERRIDES
              + "\":\""
              + wanted
              + "\"}}}";
      try {
        return resource
            .patch(PatchContext.of(PatchType.JSON_MERGE), json)
            .getMetadata()
            .getGeneration();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= CONFLICT_RETRIES) {
          throw e;
        }
        sleeper.sleep(poll); // someone else wrote in between: re-read and try again
      }
    }
  }

  private RescaleOutcome await(
      String wanted, Map<String, Integer> target, long generation, Instant start, Duration timeout)
      throws InterruptedException {
    String waitingFor = "the Flink operator to reconcile generation " + generation;
    Instant down = null;
    Instant lastUp = start;
    while (true) {
      Instant seen = clock.instant();
      GenericKubernetesResource r = resource.get();
      if (r == null) {
        return new RescaleOutcome.Failed("the resource was deleted while rescaling");
      }
      Object now = FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES);
      if (!wanted.equals(now)) {
        return new RescaleOutcome.NotApplied(
            target,
            Map.of(),
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
      Optional<Map<String, Integer>> running = flink.runningParallelism();
      if (reconciled && running.isPresent() && running.get().equals(new TreeMap<>(target))) {
        markApplied(wanted);
        // If no poll caught the job down, it was down somewhere since the last poll saw it up.
        return new RescaleOutcome.Applied(
            target,
            Duration.between(start, seen),
            Duration.between(down != null ? down : lastUp, seen));
      }
      if (running.isEmpty() && down == null) {
        down = seen;
      } else if (running.isPresent() && down == null) {
        lastUp = seen;
      }
      waitingFor =
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
      if (!seen.plus(poll).isBefore(start.plus(timeout))) {
        return new RescaleOutcome.NotApplied(
            target,
            running.orElse(Map.of()),
            "after " + timeout.toSeconds() + " s still waiting for " + waitingFor);
      }
      sleeper.sleep(poll);
    }
  }

  private void markApplied(String wanted) {
    try {
      resource.patch(
          PatchContext.of(PatchType.JSON_MERGE),
          "{\"metadata\":{\"annotations\":{\""
              + JobSettings.IN_FLIGHT
              + "\":null,\""
              + JobSettings.APPLIED
              + "\":\""
              + wanted
              + "\"}}}");
    } catch (KubernetesClientException e) {
      // Harmless if left: it only makes a restarted controller re-check an applied rescale.
    }
  }
}
