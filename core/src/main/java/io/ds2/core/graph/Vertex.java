package io.ds2.core.graph;

import java.util.List;
import java.util.Objects;

/**
 * A job vertex: one operator chain of the dataflow, the unit Flink scales.
 *
 * @param id the vertex id Flink assigned (hex), stable while the graph and chaining are unchanged
 * @param name the human-readable name, e.g. {@code Source: Bids} or {@code Work -> Sink}
 * @param maxParallelism the vertex's max parallelism (key groups); no recommendation exceeds it
 */
public record Vertex(String id, String name, int maxParallelism) {
  public Vertex {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    if (id.isBlank()) {
      throw new InvalidGraphException("a vertex has an empty id");
    }
    if (maxParallelism < 1) {
      throw new InvalidGraphException(
          "vertex " + id + " has max parallelism " + maxParallelism + ", expected >= 1");
    }
  }

  /**
   * The operators Flink chained into this vertex, head first, as its name lists them ({@code
   * Source: S -> Parse} holds {@code Source: S} and {@code Parse}).
   */
  public List<String> operators() {
    return List.of(name.split(" -> "));
  }
}
