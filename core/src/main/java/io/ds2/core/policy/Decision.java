package io.ds2.core.policy;

import io.ds2.core.estimate.Estimate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One decision of the loop, as data: the estimate it was made from (inputs and per-vertex
 * derivation), the per-vertex targets with their reasons, and the action.
 */
public record Decision(
    Instant time, Estimate estimate, List<VertexDecision> vertices, Action action) {
  public Decision {
    vertices = List.copyOf(vertices);
  }

  public boolean rescales() {
    return action instanceof Action.Rescale;
  }

  public Optional<VertexDecision> vertex(String id) {
    return vertices.stream().filter(v -> v.vertexId().equals(id)).findFirst();
  }
}
