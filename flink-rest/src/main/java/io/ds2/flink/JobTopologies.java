package io.ds2.flink;

import io.ds2.core.graph.Edge;
import io.ds2.core.graph.InvalidGraphException;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.scaler.JobTopology;
import io.ds2.flink.FlinkRestException.Kind;
import io.ds2.flink.dto.JobDetails;
import java.util.ArrayList;
import java.util.List;

/** A job's topology read from {@code GET /jobs/:jid} (vertices and plan). */
final class JobTopologies {
  // Flink's default max parallelism for small jobs, used only if a version omits the field.
  private static final int DEFAULT_MAX_PARALLELISM = 128;

  private JobTopologies() {}

  static JobTopology from(JobDetails d, String url) {
    if (d.vertices() == null || d.plan() == null || d.plan().nodes() == null) {
      throw new FlinkRestException(
          Kind.MALFORMED_RESPONSE, "GET " + url + " has no vertices or plan for job " + d.jid());
    }
    List<Vertex> vertices = new ArrayList<>();
    for (JobDetails.Vertex v : d.vertices()) {
      if (v.id() == null) {
        throw new FlinkRestException(
            Kind.MALFORMED_RESPONSE, "GET " + url + ": a vertex has no id");
      }
      int max = v.maxParallelism() > 0 ? v.maxParallelism() : DEFAULT_MAX_PARALLELISM;
      vertices.add(
          new Vertex(v.id(), v.name() == null ? v.id() : v.name(), max, v.slotSharingGroup()));
    }
    List<Edge> edges = new ArrayList<>();
    for (JobDetails.Node n : d.plan().nodes()) {
      if (n.inputs() != null) {
        n.inputs().forEach(in -> edges.add(new Edge(in.id(), n.id(), in.shipStrategy())));
      }
    }
    try {
      return new JobTopology(d.jid(), d.name(), JobGraph.of(vertices, edges));
    } catch (InvalidGraphException e) {
      throw new FlinkRestException(
          Kind.MALFORMED_RESPONSE,
          "GET " + url + ": job plan is not a valid DAG: " + e.getMessage());
    }
  }
}
