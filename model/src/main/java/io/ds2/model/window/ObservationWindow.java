package io.ds2.model.window;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A clean window over which every vertex of the job was observed. */
public record ObservationWindow(
    Instant start, Instant end, Map<String, VertexObservation> vertices) {
  public ObservationWindow {
    vertices = Collections.unmodifiableMap(new LinkedHashMap<>(vertices));
  }

  public Duration length() {
    return Duration.between(start, end);
  }

  public Optional<VertexObservation> vertex(String id) {
    return Optional.ofNullable(vertices.get(id));
  }
}
