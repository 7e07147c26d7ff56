package io.ds2.flink;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import io.ds2.core.graph.SlotSharing;
import io.ds2.core.policy.SlotCapacity;
import io.ds2.flink.dto.ClusterOverview;
import io.ds2.flink.dto.JobDetails;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/** How many slots a job can get in the cluster its REST API belongs to. */
public final class ClusterSlots {
  private ClusterSlots() {}

  /**
   * The slots free in the cluster plus those the job holds ({@link #held}), from {@code /overview};
   * unknown where the cluster starts task managers on demand (native Kubernetes or YARN, by {@code
   * execution.target}: its free slots are no limit there) and where reading failed.
   */
  public static SlotCapacity of(FlinkRestClient client, String jobId) {
    try {
      if (startsTaskManagersOnDemand(client)) {
        return SlotCapacity.unknown();
      }
      ClusterOverview o = client.get("/overview", ClusterOverview.class);
      JobDetails d = client.get("/jobs/" + jobId, JobDetails.class);
      int held = held(d.vertices());
      return SlotCapacity.of(
          o.slotsAvailable() + held,
          "the cluster's "
              + o.slotsAvailable()
              + " free slots and the "
              + held
              + " the job holds, of "
              + o.slotsTotal());
    } catch (FlinkRestException e) {
      return SlotCapacity.unknown();
    }
  }

  /**
   * The slots a job holds: per slot-sharing group its largest vertex's parallelism, summed (a
   * vertex whose group is not reported, before Flink 1.19, is in the default group).
   */
  static int held(List<JobDetails.Vertex> vertices) {
    return SlotSharing.held(
        vertices,
        v -> v.slotSharingGroup().orElse(SlotSharing.DEFAULT_GROUP),
        JobDetails.Vertex::parallelism);
  }

  /** The slots the cluster's task managers have now ({@code /overview}), if it answers. */
  public static OptionalInt total(FlinkRestClient client) {
    try {
      return OptionalInt.of(client.get("/overview", ClusterOverview.class).slotsTotal());
    } catch (FlinkRestException e) {
      return OptionalInt.empty();
    }
  }

  private static boolean startsTaskManagersOnDemand(FlinkRestClient client) {
    JavaType entries =
        client.mapper().getTypeFactory().constructCollectionType(List.class, JsonNode.class);
    List<JsonNode> config = client.get("/jobmanager/config", entries);
    return config.stream()
        .filter(n -> n != null && "execution.target".equals(n.path("key").asText()))
        .map(n -> n.path("value").asText().toLowerCase(Locale.ROOT))
        .anyMatch(t -> t.contains("kubernetes") || t.contains("yarn"));
  }
}
