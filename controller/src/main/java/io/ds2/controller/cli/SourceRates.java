package io.ds2.controller.cli;

import io.ds2.model.graph.JobGraph;
import io.ds2.model.graph.Vertex;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/** {@code --source-rate VERTEX=R}, resolved against a job graph (live or recorded). */
final class SourceRates {
  @Option(
      names = "--source-rate",
      paramLabel = "VERTEX=RECORDS_PER_S",
      description =
          "Demand of a source vertex (name or id), records/s for the whole vertex. Repeatable.")
  Map<String, String> given = new LinkedHashMap<>();

  /** By vertex id; an unknown or non-source vertex, or a bad rate, is a usage error. */
  Map<String, Double> resolve(JobGraph graph) {
    Map<String, Double> resolved = new HashMap<>();
    for (Map.Entry<String, String> e : given.entrySet()) {
      Vertex v =
          graph
              .find(e.getKey())
              .filter(found -> graph.isSource(found.id()))
              .orElseThrow(
                  () ->
                      new UsageException(
                          "--source-rate: '"
                              + e.getKey()
                              + "' is not a source vertex of the job;"
                              + " sources: "
                              + graph.sources().stream()
                                  .map(s -> "'" + s.name() + "' (" + s.id() + ")")
                                  .collect(Collectors.joining(", "))));
      double rate;
      try {
        rate = Double.parseDouble(e.getValue());
      } catch (NumberFormatException ex) {
        rate = Double.NaN;
      }
      if (!(rate >= 0) || Double.isInfinite(rate)) {
        throw new UsageException(
            "--source-rate: '"
                + e.getValue()
                + "' for '"
                + e.getKey()
                + "' is not a rate in records/s (a number >= 0)");
      }
      resolved.put(v.id(), rate);
    }
    return resolved;
  }
}
