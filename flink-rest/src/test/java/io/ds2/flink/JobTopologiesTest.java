package io.ds2.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.core.graph.Vertex;
import io.ds2.core.scaler.JobTopology;
import io.ds2.flink.dto.JobDetails;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A job's slot-sharing groups as Flink reports them (1.19 on), and none where it does not. */
class JobTopologiesTest {
  private static final String PLAN =
      "\"plan\":{\"nodes\":[{\"id\":\"a\"},{\"id\":\"b\",\"inputs\":[{\"id\":\"a\","
          + "\"ship_strategy\":\"HASH\"}]}]}";

  private static JobTopology parse(String vertices) throws Exception {
    String json = "{\"jid\":\"j\",\"name\":\"n\",\"vertices\":[" + vertices + "]," + PLAN + "}";
    FlinkRestClient client =
        new FlinkRestClient(URI.create("http://127.0.0.1:1/"), Duration.ofSeconds(1));
    return JobTopologies.from(client.mapper().readValue(json, JobDetails.class), "/jobs/j");
  }

  private static List<Optional<String>> groups(JobTopology t) {
    return t.graph().topologicalOrder().stream().map(Vertex::slotSharingGroup).toList();
  }

  @Test
  void eachVertexCarriesTheSlotSharingGroupFlinkReports() throws Exception {
    JobTopology t =
        parse(
            "{\"id\":\"a\",\"name\":\"Source: S\",\"parallelism\":2,\"maxParallelism\":128,"
                + "\"slotSharingGroupId\":\"e1af6321de61a7e980ec5bb37f4650c6\"},"
                + "{\"id\":\"b\",\"name\":\"Sink\",\"parallelism\":8,\"maxParallelism\":128,"
                + "\"slotSharingGroupId\":\"0f\"}");
    assertEquals(
        List.of(Optional.of("e1af6321de61a7e980ec5bb37f4650c6"), Optional.of("0f")), groups(t));
  }

  @Test
  void aFlinkThatReportsNoGroupLeavesItEmpty() throws Exception {
    JobTopology t =
        parse(
            "{\"id\":\"a\",\"name\":\"Source: S\",\"parallelism\":2,\"maxParallelism\":128},"
                + "{\"id\":\"b\",\"name\":\"Sink\",\"parallelism\":8,\"maxParallelism\":128,"
                + "\"slotSharingGroupId\":\"\"}");
    assertEquals(List.of(Optional.empty(), Optional.empty()), groups(t));
  }
}
