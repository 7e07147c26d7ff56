package io.ds2.operator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Map;
import java.util.Optional;

/**
 * The Flink Kubernetes Operator's resources, addressed generically (no dependency on its API jar),
 * and the few fields of them ds2 reads.
 */
public final class FlinkKinds {
  public static final String GROUP = "flink.apache.org";
  public static final String VERSION = "v1beta1";
  public static final String OVERRIDES = "pipeline.jobvertex-parallelism-overrides";

  public static final ResourceDefinitionContext DEPLOYMENT =
      context("FlinkDeployment", "flinkdeployments");
  public static final ResourceDefinitionContext SESSION_JOB =
      context("FlinkSessionJob", "flinksessionjobs");

  private FlinkKinds() {}

  private static ResourceDefinitionContext context(String kind, String plural) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(GROUP)
        .withVersion(VERSION)
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(true)
        .build();
  }

  /** A string at a path of nested maps, e.g. {@code status.jobStatus.state}. */
  public static Optional<String> string(GenericKubernetesResource r, String... path) {
    Object at = r.getAdditionalProperties();
    for (String key : path) {
      if (!(at instanceof Map<?, ?> m)) {
        return Optional.empty();
      }
      at = m.get(key);
    }
    return at == null ? Optional.empty() : Optional.of(String.valueOf(at));
  }

  /** {@code spec.flinkConfiguration}, empty if absent. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> flinkConfiguration(GenericKubernetesResource r) {
    Object spec = r.getAdditionalProperties().get("spec");
    if (spec instanceof Map<?, ?> s && s.get("flinkConfiguration") instanceof Map<?, ?> c) {
      return (Map<String, Object>) c;
    }
    return Map.of();
  }

  /** The built-in autoscaler is on (new or legacy key): ds2 must only advise. */
  public static boolean builtInAutoscalerEnabled(GenericKubernetesResource r) {
    Map<String, Object> conf = flinkConfiguration(r);
    return "true".equalsIgnoreCase(String.valueOf(conf.get("job.autoscaler.enabled")))
        || "true"
            .equalsIgnoreCase(
                String.valueOf(conf.get("kubernetes.operator.job.autoscaler.enabled")));
  }

  /**
   * Why the Flink operator says the resource's job is not running, if it does: it has not written a
   * status yet (just created), or its {@code status.jobStatus.state} is something else than RUNNING
   * (deploying, restarting, suspended, failed). A status without a job state says nothing.
   */
  public static Optional<String> notRunning(GenericKubernetesResource r) {
    if (!(r.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
        || status.isEmpty()) {
      return Optional.of("the Flink operator has not reported on it yet (no status)");
    }
    return string(r, "status", "jobStatus", "state")
        .filter(state -> !"RUNNING".equals(state))
        .map(state -> "its job is " + state + " (status.jobStatus.state)");
  }
}
