package io.ds2.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.forecast.Outlook;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.scaler.ScalerEvent;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The forecast of a window as a line of text and as JSON (the decision log's). */
public final class ForecastRendering {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ForecastRendering() {}

  /** One line: what is forecast within the lead time, and what it would need or why none. */
  public static String line(JobGraph graph, ScalerEvent.Forecasted f) {
    if (f.outlook() instanceof Outlook.None n) {
      return "forecast: none for "
          + (n.source().isEmpty() ? "the job" : n.source())
          + " ("
          + n.message()
          + "); sizing for the measured demand";
    }
    Outlook.Ahead a = (Outlook.Ahead) f.outlook();
    String demand =
        a.peak().entrySet().stream()
            .map(
                e ->
                    String.format(
                        Locale.ROOT,
                        "%s up to %.1f/s (now %.1f/s%s)",
                        e.getKey(),
                        e.getValue(),
                        a.measured().getOrDefault(e.getKey(), 0.0),
                        a.weekly().contains(e.getKey()) ? "; by its weekly pattern" : ""))
            .collect(Collectors.joining(", "));
    String head =
        String.format(
            Locale.ROOT,
            "forecast: %s within %d s (error %.0f %%)",
            demand,
            a.lead().toSeconds(),
            100 * a.error());
    if (f.wouldNeed().isEmpty()) {
      return head + "; no more than measured needed";
    }
    return head
        + "; would need "
        + changes(graph, f.measuredNeed(), f.wouldNeed())
        + (f.acted() ? " (sized for it)" : " (advice only)");
  }

  /** The event as the decision log writes it. */
  public static ObjectNode json(JobGraph graph, ScalerEvent.Forecasted f, Instant time) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("type", "forecast");
    root.put("time", time.toString());
    if (f.outlook() instanceof Outlook.None n) {
      root.put("available", false);
      root.put("reason", n.reason().name());
      root.put("source", n.source());
      root.put("message", n.message());
      return root;
    }
    Outlook.Ahead a = (Outlook.Ahead) f.outlook();
    root.put("available", true);
    root.put("leadSeconds", a.lead().toSeconds());
    root.put("error", a.error());
    ObjectNode sources = root.putObject("sources");
    a.peak()
        .forEach(
            (name, peak) ->
                sources
                    .putObject(name)
                    .put("measured", a.measured().getOrDefault(name, 0.0))
                    .put("peak", peak)
                    .put("season", a.weekly().contains(name) ? "weekly" : "daily"));
    root.put("acted", f.acted());
    ObjectNode need = root.putObject("wouldNeed");
    f.wouldNeed().forEach((id, p) -> need.put(name(graph, id), p));
    return root;
  }

  private static String changes(
      JobGraph graph, Map<String, Integer> measured, Map<String, Integer> ahead) {
    return ahead.entrySet().stream()
        .filter(e -> !e.getValue().equals(measured.get(e.getKey())))
        .map(
            e ->
                name(graph, e.getKey())
                    + " "
                    + e.getValue()
                    + " (measured: "
                    + measured.getOrDefault(e.getKey(), e.getValue())
                    + ")")
        .collect(Collectors.joining(", "));
  }

  private static String name(JobGraph graph, String id) {
    return graph == null ? id : graph.vertex(id).map(v -> v.name()).orElse(id);
  }
}
