package io.ds2.flink.dto;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code GET /jobs/:jid}: state, last state-change times, vertices and the plan (edges). */
public record JobDetails(
    String jid,
    String name,
    String state,
    Map<String, Long> timestamps,
    List<Vertex> vertices,
    Plan plan) {

  /** {@code slotSharingGroupId} from Flink 1.19 on; null before. */
  public record Vertex(
      String id,
      String name,
      int parallelism,
      int maxParallelism,
      String status,
      String slotSharingGroupId) {
    /** The vertex's slot-sharing group, empty where Flink names none (before 1.19) or a blank. */
    public Optional<String> slotSharingGroup() {
      return Optional.ofNullable(slotSharingGroupId).filter(g -> !g.isBlank());
    }
  }

  public record Plan(List<Node> nodes) {}

  public record Node(String id, List<Input> inputs) {}

  public record Input(String id, @JsonProperty("ship_strategy") String shipStrategy) {}
}
