package io.ds2.core.window;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Everything one poll of a job returned, stamped with the local time the answer arrived (Flink does
 * not expose when its metric store was refreshed).
 *
 * @param runningSince when the job last entered RUNNING (changes on every restart and rescale)
 * @param restarts the job's {@code numRestarts} if reported
 */
public record JobSample(
    Instant time,
    String jobState,
    Instant runningSince,
    OptionalLong restarts,
    Map<String, VertexSample> vertices) {
  public JobSample {
    vertices = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(vertices));
  }

  public Optional<VertexSample> vertex(String id) {
    return Optional.ofNullable(vertices.get(id));
  }
}
