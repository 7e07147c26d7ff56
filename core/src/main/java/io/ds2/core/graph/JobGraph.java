package io.ds2.core.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The logical dataflow of a job: vertices and the edges between them, validated to be a DAG.
 * Vertices are kept in a topological order (sources first, ties in insertion order), which is the
 * order the DS2 computation visits them in.
 */
public final class JobGraph {
  private final List<Vertex> topologicalOrder;
  private final Map<String, Vertex> byId;
  private final List<Edge> edges;
  private final Map<String, List<Edge>> inputs;
  private final Map<String, List<Edge>> outputs;
  // by topological position: the positions of the vertex's inputs, in inputsOf's order
  private final int[][] inputPositions;
  // by topological position: the vertex's input edges (inputsOf without a lookup)
  private final List<List<Edge>> inputsByPosition;
  private final List<Vertex> sources;

  private JobGraph(
      List<Vertex> topologicalOrder,
      Map<String, Vertex> byId,
      List<Edge> edges,
      Map<String, List<Edge>> inputs,
      Map<String, List<Edge>> outputs) {
    this.topologicalOrder = topologicalOrder;
    this.byId = byId;
    this.edges = edges;
    this.inputs = inputs;
    this.outputs = outputs;
    Map<String, Integer> position = new HashMap<>();
    for (int i = 0; i < topologicalOrder.size(); i++) {
      position.put(topologicalOrder.get(i).id(), i);
    }
    this.inputPositions = new int[topologicalOrder.size()][];
    List<List<Edge>> byPosition = new ArrayList<>(topologicalOrder.size());
    for (int i = 0; i < topologicalOrder.size(); i++) {
      List<Edge> in = inputs.get(topologicalOrder.get(i).id());
      byPosition.add(in);
      inputPositions[i] = new int[in.size()];
      for (int k = 0; k < in.size(); k++) {
        inputPositions[i][k] = position.get(in.get(k).from());
      }
    }
    this.inputsByPosition = List.copyOf(byPosition);
    this.sources = topologicalOrder.stream().filter(v -> inputs.get(v.id()).isEmpty()).toList();
  }

  /**
   * Builds and validates a graph.
   *
   * @throws InvalidGraphException on duplicate vertex ids, edges to unknown vertices, or cycles
   */
  public static JobGraph of(Collection<Vertex> vertices, Collection<Edge> edges) {
    if (vertices.isEmpty()) {
      throw new InvalidGraphException("the graph has no vertices");
    }
    Map<String, Vertex> byId = new LinkedHashMap<>();
    for (Vertex v : vertices) {
      if (byId.putIfAbsent(v.id(), v) != null) {
        throw new InvalidGraphException("vertex id " + v.id() + " appears twice");
      }
    }
    Map<String, List<Edge>> inputs = new HashMap<>();
    Map<String, List<Edge>> outputs = new HashMap<>();
    byId.keySet()
        .forEach(
            id -> {
              inputs.put(id, new ArrayList<>());
              outputs.put(id, new ArrayList<>());
            });
    for (Edge e : edges) {
      for (String end : List.of(e.from(), e.to())) {
        if (!byId.containsKey(end)) {
          throw new InvalidGraphException(
              "edge " + e.from() + " -> " + e.to() + " refers to unknown vertex " + end);
        }
      }
      outputs.get(e.from()).add(e);
      inputs.get(e.to()).add(e);
    }
    List<Vertex> order = topologicalOrder(byId, inputs, outputs);
    inputs.replaceAll((k, v) -> List.copyOf(v));
    outputs.replaceAll((k, v) -> List.copyOf(v));
    // Hash maps, not Map.copyOf: its open addressing probes long runs for ids with similar
    // hashes ("v1", "v2", ...), and every estimate looks every vertex up several times.
    return new JobGraph(
        List.copyOf(order),
        Collections.unmodifiableMap(new HashMap<>(byId)),
        List.copyOf(edges),
        Collections.unmodifiableMap(new HashMap<>(inputs)),
        Collections.unmodifiableMap(new HashMap<>(outputs)));
  }

  // Kahn's algorithm; whatever is left over lies on or behind a cycle.
  private static List<Vertex> topologicalOrder(
      Map<String, Vertex> byId, Map<String, List<Edge>> inputs, Map<String, List<Edge>> outputs) {
    Map<String, Integer> pending = new HashMap<>();
    Deque<String> ready = new ArrayDeque<>();
    for (String id : byId.keySet()) {
      pending.put(id, inputs.get(id).size());
      if (inputs.get(id).isEmpty()) {
        ready.add(id);
      }
    }
    List<Vertex> order = new ArrayList<>();
    while (!ready.isEmpty()) {
      String id = ready.poll();
      order.add(byId.get(id));
      for (Edge e : outputs.get(id)) {
        if (pending.merge(e.to(), -1, Integer::sum) == 0) {
          ready.add(e.to());
        }
      }
    }
    if (order.size() < byId.size()) {
      List<String> stuck =
          byId.keySet().stream().filter(id -> pending.get(id) > 0).sorted().toList();
      throw new InvalidGraphException("the graph has a cycle through vertices " + stuck);
    }
    return order;
  }

  /** All vertices, sources first, each after all of its inputs. */
  public List<Vertex> topologicalOrder() {
    return topologicalOrder;
  }

  public List<Edge> edges() {
    return edges;
  }

  public List<Edge> inputsOf(String vertexId) {
    return require(inputs, vertexId);
  }

  /**
   * The topological position of input {@code k} (in {@link #inputsOf} order) of the vertex at
   * {@code position}: lets a pass over the graph keep per-vertex values in arrays, not maps.
   */
  public int inputPosition(int position, int k) {
    return inputPositions[position][k];
  }

  /**
   * The input edges of the vertex at topological {@code position}: {@link #inputsOf} for a pass
   * over the graph that already knows where it is (an estimate asks once per vertex and window).
   */
  public List<Edge> inputsAt(int position) {
    return inputsByPosition.get(position);
  }

  /** Whether the vertex at topological {@code position} is a source. */
  public boolean isSourceAt(int position) {
    return inputsByPosition.get(position).isEmpty();
  }

  public List<Edge> outputsOf(String vertexId) {
    return require(outputs, vertexId);
  }

  /** A source has no inputs; DS2 never scales it, its output is the external demand. */
  public boolean isSource(String vertexId) {
    return inputsOf(vertexId).isEmpty();
  }

  /** The sources, in topological order. */
  public List<Vertex> sources() {
    return sources;
  }

  public Optional<Vertex> vertex(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /**
   * Resolves what a user typed: a vertex id, or else a vertex name if exactly one vertex has it.
   */
  public Optional<Vertex> find(String idOrName) {
    Vertex byIdMatch = byId.get(idOrName);
    if (byIdMatch != null) {
      return Optional.of(byIdMatch);
    }
    List<Vertex> named = topologicalOrder.stream().filter(v -> v.name().equals(idOrName)).toList();
    return named.size() == 1 ? Optional.of(named.get(0)) : Optional.empty();
  }

  private static List<Edge> require(Map<String, List<Edge>> index, String vertexId) {
    List<Edge> found = index.get(vertexId);
    if (found == null) {
      throw new IllegalArgumentException("unknown vertex " + vertexId);
    }
    return found;
  }

  @Override
  public String toString() {
    return "JobGraph" + topologicalOrder.stream().map(Vertex::name).toList();
  }
}
