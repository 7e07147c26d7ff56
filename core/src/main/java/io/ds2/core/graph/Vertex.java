package io.ds2.core.graph;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A job vertex: one operator chain of the dataflow, the unit Flink scales.
 *
 * @param id the vertex id Flink assigned (hex), stable while the graph and chaining are unchanged
 * @param name the human-readable name, e.g. {@code Source: Bids} or {@code Work -> Sink}
 * @param maxParallelism the vertex's max parallelism (key groups); no recommendation exceeds it
 * @param slotSharingGroup the slot-sharing group Flink reports for it (REST, from Flink 1.19);
 *     empty where not reported, and then taken to be Flink's default group, shared by every vertex
 */
public record Vertex(
    String id, String name, int maxParallelism, Optional<String> slotSharingGroup) {
  public Vertex {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(slotSharingGroup, "slotSharingGroup");
    if (id.isBlank()) {
      throw new InvalidGraphException("a vertex has an empty id");
    }
    if (maxParallelism < 1) {
      throw new InvalidGraphException(
          "vertex " + id + " has max parallelism " + maxParallelism + ", expected >= 1");
    }
  }

  /** A vertex in Flink's default slot-sharing group (or one whose group is not reported). */
  public Vertex(String id, String name, int maxParallelism) {
    this(id, name, maxParallelism, Optional.empty());
  }

  /**
   * The operators Flink chained into this vertex, head first, as its name lists them ({@code
   * Source: S -> Parse} holds {@code Source: S} and {@code Parse}).
   */
  public List<String> operators() {
    return List.of(name.split(" -> "));
  }
}
