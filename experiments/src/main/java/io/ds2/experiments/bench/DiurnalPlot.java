package io.ds2.experiments.bench;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.forecast.Outlook;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.options.OptionSpec;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.recording.Recorded;
import io.ds2.recording.RecordingReader;
import io.ds2.whatif.WhatIf;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The diurnal runs in one picture: above, the demand the schedule sent and what the forecast of a
 * predictive run said at each window (the highest demand within its lead time, as a replay of its
 * recording reads it: the same core over the same polls); below, the slots each controller held.
 */
public final class DiurnalPlot {
  // Demand and forecast first, then one colour per controller: no two series share one.
  private static final Color[] COLORS = {
    Color.GRAY,
    new Color(0xd62728),
    new Color(0x1f77b4),
    new Color(0x2ca02c),
    new Color(0xff7f0e),
    new Color(0x9467bd)
  };

  private DiurnalPlot() {}

  /**
   * @param runs each controller's run to show: its recording (a CSV of the same name beside it)
   * @param predictive the recording whose forecast is shown
   */
  public static void write(Path png, Map<String, Path> runs, Path predictive)
      throws IOException, InterruptedException {
    System.setProperty("java.awt.headless", "true");
    Scenario s = DiurnalScenario.diurnal();
    XYSeriesCollection rates = new XYSeriesCollection();
    XYSeries demand = new XYSeries("demand sent (records/s)");
    for (double t = 10; t <= s.length().toSeconds(); t += 10) {
      demand.add(t, (s.eventsBy(t) - s.eventsBy(t - 10)) / 10);
    }
    rates.addSeries(demand);
    rates.addSeries(forecast(predictive));
    XYSeriesCollection slots = new XYSeriesCollection();
    for (var e : runs.entrySet()) {
      slots.addSeries(slots(e.getKey(), e.getValue()));
    }
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(new NumberAxis("seconds"));
    plot.add(panel(rates, "records/s", 0), 1);
    plot.add(panel(slots, "slots", 2), 1);
    JFreeChart chart =
        new JFreeChart(
            "diurnal: demand, forecast (above); slots per controller (below)",
            JFreeChart.DEFAULT_TITLE_FONT,
            plot,
            true);
    chart.setBackgroundPaint(Color.WHITE);
    ChartUtils.saveChartAsPNG(png.toFile(), chart, 1000, 560);
  }

  private static XYPlot panel(XYSeriesCollection data, String axis, int firstColour) {
    XYStepRenderer r = new XYStepRenderer();
    for (int i = 0; i < data.getSeriesCount(); i++) {
      r.setSeriesPaint(i, COLORS[(firstColour + i) % COLORS.length]);
      r.setSeriesStroke(i, new BasicStroke(1.6f));
    }
    XYPlot p = new XYPlot(data, null, new NumberAxis(axis), r);
    p.setBackgroundPaint(Color.WHITE);
    p.setRangeGridlinePaint(Color.LIGHT_GRAY);
    p.setDomainGridlinePaint(Color.LIGHT_GRAY);
    return p;
  }

  /** The slots column of the run's CSV ({@link RunCsv}). */
  private static XYSeries slots(String controller, Path recording) throws IOException {
    XYSeries series = new XYSeries(controller);
    Path csv =
        recording.resolveSibling(recording.getFileName().toString().replace(".jsonl.gz", ".csv"));
    List<String> lines = Files.readAllLines(csv);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      series.add(Double.parseDouble(f[0]), Integer.parseInt(f[2]));
    }
    return series;
  }

  /**
   * The forecast's peak over its lead time, summed over the sources, at every window it had one.
   */
  private static XYSeries forecast(Path recording) throws IOException, InterruptedException {
    XYSeries series = new XYSeries("forecast: highest demand within the lead time (records/s)");
    Instant[] start = {null};
    Instant[] now = {null};
    try (RecordingReader reader = RecordingReader.open(recording, false)) {
      WhatIf.replay(
          reader,
          recordedOptions(reader.header()),
          graph -> DemandScenario.measured(),
          WhatIf.Listener.of(
              (topology, event) -> {
                if (event instanceof ScalerEvent.Forecasted f
                    && f.outlook() instanceof Outlook.Ahead a
                    && start[0] != null) {
                  double peak = a.peak().values().stream().mapToDouble(Double::doubleValue).sum();
                  series.add((now[0].toEpochMilli() - start[0].toEpochMilli()) / 1000.0, peak);
                }
              },
              record -> {
                if (record instanceof Recorded.Event e && e.kind().equals("phase")) {
                  start[0] =
                      start[0] == null
                          ? Instant.ofEpochMilli(e.details().path("startMs").asLong())
                          : start[0];
                } else if (record instanceof Recorded.Sample sample) {
                  now[0] = sample.sample().time();
                }
              }));
    }
    return series;
  }

  /** The ds2 options the run was made with, as its recording's header names them. */
  private static Ds2Options recordedOptions(Recorded.Header header) {
    Map<String, String> used = new HashMap<>();
    for (OptionSpec spec : Ds2Options.SPECS) {
      if (header.config().path("options").hasNonNull(spec.name())) {
        used.put(spec.name(), header.config().path("options").get(spec.name()).asText());
      }
    }
    return Ds2Options.fromMap(used);
  }
}
