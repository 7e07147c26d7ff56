package io.ds2.render;

import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.scaler.JobTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/** An estimate as an aligned text table for people, one row per vertex. */
public final class EstimateTable {
  private static final String[] HEADER = {
    "VERTEX",
    "ID",
    "CURRENT",
    "RECOMMENDED",
    "TRUE RATE/INSTANCE",
    "TARGET INPUT",
    "BUSY",
    "REASONS"
  };

  private EstimateTable() {}

  public static String render(JobTopology topology, Estimate estimate) {
    List<String[]> rows = new ArrayList<>();
    rows.add(HEADER);
    for (VertexEstimate v : estimate.vertices()) {
      OptionalDouble busy =
          estimate
              .window()
              .vertex(v.vertexId())
              .map(o -> o.busyRatio())
              .orElse(OptionalDouble.empty());
      rows.add(
          new String[] {
            v.name(),
            v.vertexId(),
            String.valueOf(v.currentParallelism()),
            String.valueOf(v.recommendedParallelism()),
            rate(v.trueProcessingRatePerInstance()),
            v.source()
                ? rate(v.targetInputRate().isPresent() ? v.targetInputRate() : v.targetOutputRate())
                    + " (demand)"
                : rate(v.targetInputRate()),
            busy.isPresent() ? String.format(Locale.ROOT, "%.0f%%", busy.getAsDouble() * 100) : "-",
            v.reasons().stream().map(Reason::message).collect(Collectors.joining("; "))
          });
    }
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "Job %s (%s), window %s .. %s (%.1f s), target utilization %.2f%n",
            topology.jobName(),
            topology.jobId(),
            estimate.window().start(),
            estimate.window().end(),
            estimate.window().length().toMillis() / 1000.0,
            estimate.targetUtilization()));
    sb.append(TextTable.render(rows));
    long undetermined = estimate.vertices().stream().filter(v -> !v.determined()).count();
    if (undetermined > 0) {
      sb.append(undetermined)
          .append(" vertex(es) could not be estimated and keep their parallelism; see REASONS.\n");
    }
    return sb.toString();
  }

  private static String rate(OptionalDouble r) {
    return r.isPresent() ? String.format(Locale.ROOT, "%.1f/s", r.getAsDouble()) : "-";
  }
}
