package io.ds2.core.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class JobGraphTest {
  private static Vertex v(String id) {
    return new Vertex(id, "name-" + id, 128);
  }

  private static Edge e(String from, String to) {
    return new Edge(from, to, "FORWARD");
  }

  @Test
  void ordersSourcesFirstAndEveryVertexAfterItsInputs() {
    // Declared out of order: join first, sources last.
    JobGraph g =
        JobGraph.of(
            List.of(v("join"), v("sink"), v("map"), v("s1"), v("s2")),
            List.of(e("s1", "map"), e("map", "join"), e("s2", "join"), e("join", "sink")));
    List<String> order = g.topologicalOrder().stream().map(Vertex::id).toList();
    assertEquals(List.of("s1", "s2", "map", "join", "sink"), order);
    assertEquals(List.of("s1", "s2"), g.sources().stream().map(Vertex::id).toList());
    assertEquals(2, g.inputsOf("join").size());
    assertTrue(g.isSource("s2"));
  }

  @Test
  void fanOutKeepsBothConsumers() {
    JobGraph g = JobGraph.of(List.of(v("s"), v("a"), v("b")), List.of(e("s", "a"), e("s", "b")));
    assertEquals(2, g.outputsOf("s").size());
  }

  @Test
  void rejectsEdgeToUnknownVertex() {
    InvalidGraphException ex =
        assertThrows(
            InvalidGraphException.class,
            () -> JobGraph.of(List.of(v("s")), List.of(e("s", "ghost"))));
    assertEquals("edge s -> ghost refers to unknown vertex ghost", ex.getMessage());
  }

  @Test
  void rejectsCycleNamingItsVertices() {
    InvalidGraphException ex =
        assertThrows(
            InvalidGraphException.class,
            () ->
                JobGraph.of(
                    List.of(v("s"), v("a"), v("b")),
                    List.of(e("s", "a"), e("a", "b"), e("b", "a"))));
    assertEquals("the graph has a cycle through vertices [a, b]", ex.getMessage());
  }

  @Test
  void rejectsDuplicateIdsAndBadMaxParallelism() {
    assertThrows(
        InvalidGraphException.class, () -> JobGraph.of(List.of(v("a"), v("a")), List.of()));
    assertThrows(InvalidGraphException.class, () -> new Vertex("a", "a", 0));
  }

  @Test
  void findsByIdOrUniqueName() {
    JobGraph g = JobGraph.of(List.of(v("s"), v("a")), List.of(e("s", "a")));
    assertEquals("a", g.find("a").orElseThrow().id());
    assertEquals("a", g.find("name-a").orElseThrow().id());
    assertTrue(g.find("nope").isEmpty());
  }

  @Test
  void keyedEdgeIsHash() {
    assertTrue(new Edge("a", "b", "HASH").keyed());
    assertTrue(!new Edge("a", "b", "FORWARD").keyed());
  }
}
