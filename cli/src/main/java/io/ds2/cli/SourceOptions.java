package io.ds2.cli;

import io.ds2.commandline.UsageException;
import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/**
 * What the user says about a job's sources: {@code --source-rate VERTEX=R} and {@code
 * --source-splits VERTEX=N}, resolved against a job graph (live or recorded).
 */
final class SourceOptions {
  @Option(
      names = "--source-rate",
      paramLabel = "VERTEX=RECORDS_PER_S",
      description =
          "Demand of a source vertex (name or id), records/s for the whole vertex. Repeatable.")
  Map<String, String> given = new LinkedHashMap<>();

  @Option(
      names = "--source-splits",
      paramLabel = "VERTEX=N",
      description =
          "How many splits a source vertex (name or id) reads, where its metrics do not say (a"
              + " FLIP-27 source other than Kafka's): it is never scaled above them. Repeatable.")
  Map<String, String> splits = new LinkedHashMap<>();

  /** The demand as measured, except where a rate is given, with the split counts given. */
  DemandScenario scenario(JobGraph graph) {
    return DemandScenario.given(resolve(graph)).withSourceSplits(splits(graph));
  }

  /** Rates by vertex id; an unknown or non-source vertex, or a bad rate, is a usage error. */
  Map<String, Double> resolve(JobGraph graph) {
    return byId(
        graph,
        "--source-rate",
        given,
        r -> r >= 0 && !r.isInfinite(),
        "a rate in records/s (a" + " number >= 0)",
        Double::parseDouble);
  }

  /**
   * Split counts by vertex id; an unknown or non-source vertex, or a bad count, is a usage error.
   */
  Map<String, Integer> splits(JobGraph graph) {
    return byId(
        graph,
        "--source-splits",
        splits,
        n -> n >= 1,
        "a split count (a whole number >= 1)",
        Integer::parseInt);
  }

  private static <T> Map<String, T> byId(
      JobGraph graph,
      String flag,
      Map<String, String> typed,
      Predicate<T> valid,
      String expected,
      java.util.function.Function<String, T> parse) {
    Map<String, T> resolved = new HashMap<>();
    for (Map.Entry<String, String> e : typed.entrySet()) {
      Vertex v =
          graph
              .find(e.getKey())
              .filter(found -> graph.isSource(found.id()))
              .orElseThrow(
                  () ->
                      new UsageException(
                          flag
                              + ": '"
                              + e.getKey()
                              + "' is not a source vertex of the job;"
                              + " sources: "
                              + graph.sources().stream()
                                  .map(s -> "'" + s.name() + "' (" + s.id() + ")")
                                  .collect(Collectors.joining(", "))));
      T value;
      try {
        value = parse.apply(e.getValue().trim());
      } catch (NumberFormatException ex) {
        value = null;
      }
      if (value == null || !valid.test(value)) {
        throw new UsageException(
            flag + ": '" + e.getValue() + "' for '" + e.getKey() + "' is not " + expected);
      }
      resolved.put(v.id(), value);
    }
    return resolved;
  }
}
