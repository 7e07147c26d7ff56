package io.ds2.whatif;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.recording.Recorded;
import io.ds2.whatif.WhatIfSummary.PlanRow;
import io.ds2.whatif.WhatIfSummary.VertexPoint;
import io.ds2.whatif.WhatIfSummary.WindowPoint;
import io.ds2.whatif.WhatIfSummary.WouldRescale;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The what-if report: one self-contained HTML file (uPlot and the data inlined, no network) with
 * charts of demand vs throughput, busy ratios, actual vs recommended parallelism and backlog per
 * window, the capacity plan, the rescales the policy would have made, and every decision.
 */
public final class WhatIfHtml {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";

  private WhatIfHtml() {}

  public static String render(
      Recorded.Header h, String input, String scenario, WhatIfSummary s, WhatIf.Totals totals) {
    StringBuilder body = new StringBuilder();
    body.append("<h1>ds2 what-if: ")
        .append(esc(h.jobName()))
        .append("</h1>\n<p class=meta>")
        .append(esc(input))
        .append(" &middot; job ")
        .append(esc(h.jobId()))
        .append(h.flinkVersion().map(v -> " &middot; Flink " + esc(v)).orElse(""))
        .append(" &middot; demand: <b>")
        .append(esc(scenario))
        .append("</b> &middot; ")
        .append(totals.samples())
        .append(" samples, ")
        .append(totals.decisions())
        .append(" windows, ")
        .append(totals.problems())
        .append(" without a decision</p>\n");
    body.append(
        """
        <div class=charts>
        <section><h2>Source demand (dashed) vs throughput (solid), records/s</h2><div id=demand></div></section>
        <section><h2>Busy ratio per vertex (%)</h2><div id=busy></div></section>
        <section><h2>Parallelism: actual (solid) vs recommended (dashed)</h2><div id=parallelism></div></section>
        <section><h2>Source backlog (pendingRecords)</h2><div id=backlog></div></section>
        </div>
        """);
    body.append(planTable(s));
    body.append(rescaleTable(s));
    body.append(decisionTable(s));
    return """
        <!doctype html>
        <html lang=en><head><meta charset=utf-8><title>ds2 what-if: %s</title>
        <style>%s</style>
        <style>
        body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2733;background:#fff}
        h1{font-size:22px;margin:0 0 4px} h2{font-size:15px;margin:18px 0 6px}
        .meta{color:#555;margin:0 0 12px}
        .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(560px,1fr));gap:8px 24px}
        table{border-collapse:collapse;margin:6px 0 18px;font-size:13px}
        th,td{border-bottom:1px solid #e3e6ea;padding:3px 10px;text-align:left;vertical-align:top}
        th{background:#f4f6f8} td.n{text-align:right;font-variant-numeric:tabular-nums}
        tr.rescale td{background:#fff6e0} .none{color:#888;padding:40px 0}
        </style>
        <script>%s</script>
        </head><body>
        %s
        <script id=data type="application/json">%s</script>
        <script>%s</script>
        </body></html>
        """
        .formatted(
            esc(h.jobName()),
            resource(UPLOT + "uPlot.min.css"),
            resource(UPLOT + "uPlot.iife.min.js"),
            body,
            data(s).put("demand", scenario).toString().replace("</", "<\\/"),
            CHARTS);
  }

  /** Per window: time, and per vertex the series the charts draw (null where not measured). */
  private static ObjectNode data(WhatIfSummary s) {
    ObjectNode root = MAPPER.createObjectNode();
    ArrayNode t = root.putArray("t");
    ObjectNode vertices = root.putObject("vertices");
    int i = 0;
    for (WindowPoint w : s.windows()) {
      t.add(w.time().toEpochMilli() / 1000.0);
      for (VertexPoint v : w.vertices()) {
        ObjectNode n = (ObjectNode) vertices.get(v.id());
        if (n == null) {
          n = vertices.putObject(v.id());
          n.put("name", s.name(v.id()));
          n.put("source", v.demand().isPresent());
          for (String f :
              new String[] {"current", "recommended", "busy", "out", "demand", "pending"}) {
            ArrayNode a = n.putArray(f);
            for (int k = 0; k < i; k++) {
              a.addNull();
            }
          }
        }
        ((ArrayNode) n.get("current")).add(v.current());
        ((ArrayNode) n.get("recommended")).add(v.recommended());
        add(
            n,
            "busy",
            v.busyRatio().isPresent()
                ? OptionalDouble.of(v.busyRatio().getAsDouble() * 100)
                : OptionalDouble.empty());
        ((ArrayNode) n.get("out")).add(v.observedOutputRate());
        add(n, "demand", v.demand());
        add(n, "pending", v.pendingRecords());
      }
      i++;
      // A vertex missing from this window (graph changed) gets a gap.
      for (var e : vertices.properties()) {
        for (String f :
            new String[] {"current", "recommended", "busy", "out", "demand", "pending"}) {
          ArrayNode a = (ArrayNode) e.getValue().get(f);
          while (a.size() < i) {
            a.addNull();
          }
        }
      }
    }
    return root;
  }

  private static void add(ObjectNode n, String field, OptionalDouble v) {
    if (v.isPresent()) {
      ((ArrayNode) n.get(field)).add(v.getAsDouble());
    } else {
      ((ArrayNode) n.get(field)).addNull();
    }
  }

  private static String planTable(WhatIfSummary s) {
    StringBuilder sb = new StringBuilder("<h2>Capacity plan</h2>\n");
    if (s.plan().isEmpty()) {
      return sb.append("<p>No clean window in the recording.</p>\n").toString();
    }
    sb.append(
        "<table><tr><th>Vertex<th>Current<th>Recommended (last window)<th>Peak<th>Peak at"
            + "<th>True rate / instance<th>Target input</tr>\n");
    for (PlanRow r : s.plan()) {
      sb.append("<tr><td>")
          .append(esc(r.name()))
          .append("<td class=n>")
          .append(r.current())
          .append("<td class=n>")
          .append(r.recommended())
          .append("<td class=n>")
          .append(r.peak())
          .append("<td>")
          .append(r.peakAt())
          .append("<td class=n>")
          .append(rate(r.trueRatePerInstance()))
          .append("<td class=n>")
          .append(rate(r.targetInputRate()))
          .append("</tr>\n");
    }
    return sb.append("</table>\n<p>Slots (")
        .append(WhatIfSummary.slotGroups(s.plan()))
        .append("): ")
        .append(WhatIfSummary.slots(s.plan(), false))
        .append(" for the last window, ")
        .append(WhatIfSummary.slots(s.plan(), true))
        .append(" at the peak.</p>\n")
        .toString();
  }

  private static String rescaleTable(WhatIfSummary s) {
    StringBuilder sb =
        new StringBuilder("<h2>Rescales the policy would have made: ")
            .append(s.rescales().size())
            .append("</h2>\n");
    if (s.rescales().isEmpty()) {
      return sb.toString();
    }
    sb.append("<table><tr><th>Time (UTC)<th>Change<th>Windows asking<th>Why</tr>\n");
    for (WouldRescale r : s.rescales()) {
      sb.append("<tr><td>")
          .append(r.time())
          .append("<td>")
          .append(esc(WhatIfText.changes(r.from(), r.to())))
          .append("<td class=n>")
          .append(r.windows())
          .append("<td>")
          .append(esc(r.why()))
          .append("</tr>\n");
    }
    return sb.append("</table>\n").toString();
  }

  private static String decisionTable(WhatIfSummary s) {
    StringBuilder sb = new StringBuilder("<h2>Decisions, one per window</h2>\n");
    sb.append(
        "<table><tr><th>Window end (UTC)<th>Action<th>Parallelism (current &rarr; target)</tr>\n");
    for (WindowPoint w : s.windows()) {
      StringBuilder p = new StringBuilder();
      for (VertexPoint v : w.vertices()) {
        if (v.demand().isPresent()) {
          continue;
        }
        p.append(p.isEmpty() ? "" : ", ")
            .append(esc(s.name(v.id())))
            .append(' ')
            .append(v.current());
        if (v.target() != v.current()) {
          p.append("&rarr;").append(v.target());
        }
      }
      sb.append(w.rescale() ? "<tr class=rescale><td>" : "<tr><td>")
          .append(w.time())
          .append("<td>")
          .append(esc(w.action().toLowerCase(Locale.ROOT).replace('_', ' ')))
          .append("<td>")
          .append(p)
          .append("</tr>\n");
    }
    return sb.append("</table>\n").toString();
  }

  private static String rate(OptionalDouble r) {
    return r.isPresent() ? String.format(Locale.ROOT, "%.1f/s", r.getAsDouble()) : "-";
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  private static String resource(String name) {
    try (InputStream in = WhatIfHtml.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing on the classpath: " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // Draws the four charts from the embedded data with uPlot.
  private static final String CHARTS =
      """
      const D = JSON.parse(document.getElementById('data').textContent);
      const V = Object.values(D.vertices);
      const colors = ['#1f77b4','#d62728','#2ca02c','#ff7f0e','#9467bd','#8c564b','#e377c2',
                      '#17becf','#bcbd22','#7f7f7f'];
      function chart(id, series, yLabel) {
        const el = document.getElementById(id);
        if (!series.some(s => s.data.some(y => y !== null))) {
          el.textContent = 'not measured in this recording'; el.className = 'none'; return;
        }
        new uPlot({
          width: Math.max(520, el.clientWidth), height: 260,
          scales: {x: {time: true}},
          // The tables' times are UTC (ISO, ending in Z): the charts' too.
          tzDate: ts => uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
          axes: [{label: 'time (UTC)'}, {label: yLabel, size: 60}],
          series: [{label: 'time (UTC)'}].concat(series.map((s, i) => ({
            label: s.label, stroke: s.color || colors[i % colors.length], width: 2,
            dash: s.dash, spanGaps: false, points: {show: D.t.length < 60},
            paths: s.stepped ? uPlot.paths.stepped({align: 1}) : undefined}))),
        }, [D.t].concat(series.map(s => s.data)), el);
      }
      const sources = V.filter(v => v.source), ops = V.filter(v => !v.source);
      chart('demand', sources.flatMap((v, i) => [
        {label: v.name + ' demand (' + D.demand + ')', data: v.demand, color: colors[(2*i) % 10],
         dash: [6, 4]},
        {label: v.name + ' throughput', data: v.out, color: colors[(2*i) % 10]}]), 'records/s');
      chart('busy', ops.map(v => ({label: v.name, data: v.busy})), '%');
      chart('parallelism', ops.flatMap((v, i) => [
        {label: v.name + ' actual', data: v.current, color: colors[i % 10], stepped: true},
        {label: v.name + ' recommended', data: v.recommended, color: colors[i % 10], dash: [6, 4],
         stepped: true}]),
        'parallelism');
      chart('backlog', sources.map(v => ({label: v.name, data: v.pending})), 'records');
      """;
}
