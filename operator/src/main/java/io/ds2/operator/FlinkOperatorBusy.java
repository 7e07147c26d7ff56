package io.ds2.operator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Optional;
import java.util.Set;

/**
 * Whether the Flink operator is still carrying out a spec change: a patch then would pile a rescale
 * on an upgrade, a rollback or a suspension in progress. It is done when it has observed the
 * resource's generation and its lifecycle is settled (DEPLOYED, or STABLE once it judged the job
 * stable).
 */
final class FlinkOperatorBusy {
  static final Set<String> SETTLED = Set.of("STABLE", "DEPLOYED");

  private FlinkOperatorBusy() {}

  /** Why a patch must wait, or empty if the Flink operator is idle (or reports nothing). */
  static Optional<String> of(GenericKubernetesResource r) {
    Optional<String> lifecycle = FlinkKinds.string(r, "status", "lifecycleState");
    if (lifecycle.isPresent() && !SETTLED.contains(lifecycle.get())) {
      return Optional.of(
          "the Flink operator is busy with this resource (lifecycle "
              + lifecycle.get()
              + "); not patching on top of it");
    }
    Long generation = r.getMetadata().getGeneration();
    Optional<Long> observed =
        FlinkKinds.string(r, "status", "observedGeneration").map(Long::parseLong);
    if (generation != null && observed.isPresent() && observed.get() < generation) {
      return Optional.of(
          "the Flink operator has not reconciled generation "
              + generation
              + " yet (observed "
              + observed.get()
              + "); not patching on top of it");
    }
    return Optional.empty();
  }
}
