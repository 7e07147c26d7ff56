package io.ds2.core.window;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A clean window over which every vertex of the job was observed.
 *
 * <p>A value class rather than a record so that the window builder can hand over the map it built
 * without a copy (at 1,000 vertices the copy was a twentieth of the window's time); everyone else's
 * map is copied.
 */
public final class ObservationWindow {
  private final Instant start;
  private final Instant end;
  private final Map<String, VertexObservation> vertices;

  public ObservationWindow(Instant start, Instant end, Map<String, VertexObservation> vertices) {
    this(start, end, new LinkedHashMap<>(vertices), true);
  }

  private ObservationWindow(
      Instant start,
      Instant end,
      LinkedHashMap<String, VertexObservation> owned,
      boolean owns) { // the flag only tells the constructors apart
    this.start = Objects.requireNonNull(start, "start");
    this.end = Objects.requireNonNull(end, "end");
    this.vertices = Collections.unmodifiableMap(owned);
  }

  /** A window over {@code vertices}, which the caller no longer touches. */
  static ObservationWindow owning(
      Instant start, Instant end, Map<String, VertexObservation> vertices) {
    return vertices instanceof LinkedHashMap<String, VertexObservation> owned
        ? new ObservationWindow(start, end, owned, true)
        : new ObservationWindow(start, end, vertices);
  }

  public Instant start() {
    return start;
  }

  public Instant end() {
    return end;
  }

  /** Per vertex id, in the order the window was built (the graph's topological order). */
  public Map<String, VertexObservation> vertices() {
    return vertices;
  }

  public Duration length() {
    return Duration.between(start, end);
  }

  public Optional<VertexObservation> vertex(String id) {
    return Optional.ofNullable(vertices.get(id));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ObservationWindow w
        && start.equals(w.start)
        && end.equals(w.end)
        && vertices.equals(w.vertices);
  }

  @Override
  public int hashCode() {
    return Objects.hash(start, end, vertices);
  }

  @Override
  public String toString() {
    return "ObservationWindow[start=" + start + ", end=" + end + ", vertices=" + vertices + "]";
  }
}
