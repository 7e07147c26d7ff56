package io.ds2.model.window;

import java.util.List;
import java.util.Objects;
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

  // The record's equality, written out: the window compares each vertex's consecutive readings,
  // and comparing the subtask lists through iterators was a tenth of building it.
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof VertexSample v)
        || parallelism != v.parallelism
        || subtasks.size() != v.subtasks.size()) {
      return false;
    }
    for (int i = 0; i < subtasks.size(); i++) {
      if (!subtasks.get(i).equals(v.subtasks.get(i))) {
        return false;
      }
    }
    return Objects.equals(vertexId, v.vertexId)
        && Objects.equals(status, v.status)
        && Objects.equals(pendingRecords, v.pendingRecords);
  }

  @Override
  public int hashCode() {
    return Objects.hash(vertexId, status, parallelism, subtasks, pendingRecords);
  }
}
