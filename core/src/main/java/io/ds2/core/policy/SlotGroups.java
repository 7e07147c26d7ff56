package io.ds2.core.policy;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.policy.VertexTargets.Proposal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The job's vertices by slot-sharing group, in the order of the policy's proposals. Under slot
 * sharing a job holds, per group, as many slots as that group's largest vertex: the sum over its
 * groups. A vertex whose group Flink does not report (before 1.19, older recordings) is in the
 * default group with every other such vertex.
 */
final class SlotGroups {
  private final int[] group;
  private final int count;

  private SlotGroups(int[] group, int count) {
    this.group = group;
    this.count = count;
  }

  static SlotGroups of(JobGraph graph, List<Proposal> proposals) {
    Map<String, Integer> index = new HashMap<>();
    int[] group = new int[proposals.size()];
    for (int i = 0; i < group.length; i++) {
      String name =
          graph
              .vertex(proposals.get(i).estimate().vertexId())
              .flatMap(Vertex::slotSharingGroup)
              .orElse("");
      group[i] = index.computeIfAbsent(name, k -> index.size());
    }
    return new SlotGroups(group, index.size());
  }

  int count() {
    return count;
  }

  /** Slots the job holds at {@code parallelism}: the sum over groups of the group's largest. */
  int held(int[] parallelism) {
    int[] largest = new int[count];
    for (int i = 0; i < parallelism.length; i++) {
      largest[group[i]] = Math.max(largest[group[i]], parallelism[i]);
    }
    int sum = 0;
    for (int l : largest) {
      sum += l;
    }
    return sum;
  }
}
