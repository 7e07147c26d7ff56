package io.ds2.demo;

import io.ds2.core.policy.Decision;
import io.ds2.core.policy.VertexDecision;
import io.ds2.core.window.VertexObservation;
import io.ds2.render.TextTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/** The demo's live view of one decision: parallelism, needed, busy ratio, backlog, rates. */
final class DemoTable {
  private static final String[] HEADER = {
    "VERTEX", "PARALLELISM", "NEEDED", "BUSY", "BACKLOG", "RATE (demand / true per instance)"
  };

  private DemoTable() {}

  /**
   * @param needed the closed-form parallelism per vertex name
   */
  public static String render(Decision d, Map<String, Integer> needed) {
    List<String[]> rows = new ArrayList<>();
    rows.add(HEADER);
    for (VertexDecision v : d.vertices()) {
      VertexObservation obs = d.estimate().window().vertex(v.vertexId()).orElseThrow();
      String parallelism =
          v.target() == v.current()
              ? String.valueOf(v.current())
              : v.current() + " -> " + v.target();
      String rate =
          v.source()
              ? fmt("%.1f/s demand", d.estimate().demands().get(v.vertexId()).targetRate())
              : d.estimate()
                      .vertex(v.vertexId())
                      .orElseThrow()
                      .trueProcessingRatePerInstance()
                      .isPresent()
                  ? fmt(
                      "%.1f/s per instance",
                      d.estimate()
                          .vertex(v.vertexId())
                          .orElseThrow()
                          .trueProcessingRatePerInstance()
                          .getAsDouble())
                  : "-";
      rows.add(
          new String[] {
            v.name(),
            parallelism,
            String.valueOf(needed.getOrDefault(v.name(), 0)),
            percent(obs.busyRatio()),
            obs.backlog().map(b -> fmt("%.0f", b.pendingAtEnd())).orElse("-"),
            rate
          });
    }
    StringBuilder sb = new StringBuilder();
    TextTable.render(rows).lines().forEach(l -> sb.append("  ").append(l).append('\n'));
    return sb.toString();
  }

  private static String percent(OptionalDouble r) {
    return r.isPresent() ? fmt("%.0f%%", r.getAsDouble() * 100) : "-";
  }

  private static String fmt(String f, Object... args) {
    return String.format(Locale.ROOT, f, args);
  }
}
