package io.ds2.core.policy;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.SlotSharing;
import io.ds2.core.policy.VertexTargets.Proposal;
import java.util.List;
import java.util.stream.IntStream;

/** The slot-sharing group of each of the policy's proposals, by index: see {@link SlotSharing}. */
final class SlotGroups {
  private final List<String> group;
  private final List<Integer> indices;

  private SlotGroups(List<String> group) {
    this.group = group;
    this.indices = IntStream.range(0, group.size()).boxed().toList();
  }

  static SlotGroups of(JobGraph graph, List<Proposal> proposals) {
    return new SlotGroups(
        proposals.stream()
            .map(
                p ->
                    graph
                        .vertex(p.estimate().vertexId())
                        .map(SlotSharing::groupOf)
                        .orElse(SlotSharing.DEFAULT_GROUP))
            .toList());
  }

  int count() {
    return (int) group.stream().distinct().count();
  }

  /** Slots the job holds with its vertices at {@code parallelism} (by proposal index). */
  int held(int[] parallelism) {
    return SlotSharing.held(indices, group::get, i -> parallelism[i]);
  }
}
