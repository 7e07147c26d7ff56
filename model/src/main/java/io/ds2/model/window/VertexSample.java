package io.ds2.model.window;

import java.util.List;
import java.util.OptionalDouble;

/**
 * One vertex at one poll: its state, parallelism, every subtask's counters and, for a source that
 * reports it, the backlog ({@code pendingRecords}, summed over subtasks).
 */
public record VertexSample(
    String vertexId,
    String status,
    int parallelism,
    List<SubtaskSample> subtasks,
    OptionalDouble pendingRecords) {
  public VertexSample {
    subtasks = List.copyOf(subtasks);
  }
}
