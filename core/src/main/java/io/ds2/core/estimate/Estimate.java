package io.ds2.core.estimate;

import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.window.ObservationWindow;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The DS2 result for a whole job: one estimate per vertex in topological order, the source demands
 * it was sized for, and the window it was measured over.
 *
 * @param keyedHistory what the next estimate should remember of keyed vertices' spreads, this
 *     window's observations included
 */
public record Estimate(
    ObservationWindow window,
    Map<String, SourceDemand> demands,
    List<VertexEstimate> vertices,
    double targetUtilization,
    KeyedHistory keyedHistory) {
  public Estimate {
    demands = Collections.unmodifiableMap(new LinkedHashMap<>(demands)); // see JobGraph
    vertices = List.copyOf(vertices);
  }

  /** True if every vertex could be estimated. */
  public boolean complete() {
    for (VertexEstimate v : vertices) { // a loop, not a stream: the policy asks every window
      if (!v.determined()) {
        return false;
      }
    }
    return true;
  }

  public Optional<VertexEstimate> vertex(String id) {
    return vertices.stream().filter(v -> v.vertexId().equals(id)).findFirst();
  }
}
