package io.ds2.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.flink.dto.JobDetails;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterSlotsTest {
  private static JobDetails.Vertex vertex(int parallelism, String group) {
    return new JobDetails.Vertex("id", "name", parallelism, 128, "RUNNING", group);
  }

  @Test
  void aJobHoldsItsLargestVertexPerSlotSharingGroup() {
    assertEquals(12, ClusterSlots.held(List.of(vertex(2, "g1"), vertex(8, "g1"), vertex(4, "g2"))));
  }

  @Test
  void verticesWithoutAReportedGroupShareTheDefaultOne() {
    // Flink before 1.19 names no group: every vertex is in the default one.
    assertEquals(8, ClusterSlots.held(List.of(vertex(2, null), vertex(8, null), vertex(4, " "))));
  }
}
