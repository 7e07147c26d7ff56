package io.ds2.experiments.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * PNG plots of a run (JFreeChart): parallelism per operator over time against the oracle, and the
 * sources' backlog (consumer lag) on a second axis when there was one.
 */
final class Plots {
  private static final Color[] COLORS = {
    new Color(0x1f77b4),
    new Color(0xd62728),
    new Color(0x2ca02c),
    new Color(0xff7f0e),
    new Color(0x9467bd),
    new Color(0x8c564b)
  };

  private Plots() {}

  static void parallelism(Scenario s, String controller, List<Saso.Point> points, Path png)
      throws IOException {
    System.setProperty("java.awt.headless", "true");
    List<String> ops = new ArrayList<>(s.oracle(0).keySet());
    XYSeriesCollection data = new XYSeriesCollection();
    for (String op : ops) {
      XYSeries actual = new XYSeries(op + " (" + controller + ")");
      XYSeries oracle = new XYSeries(op + " oracle");
      for (Saso.Point p : points) {
        actual.add(p.t(), p.parallelism().getOrDefault(op, 0));
        oracle.add(p.t(), s.oracle(p.phase()).get(op));
      }
      data.addSeries(actual);
      data.addSeries(oracle);
    }
    XYStepRenderer renderer = new XYStepRenderer();
    for (int i = 0; i < ops.size(); i++) {
      Color c = COLORS[i % COLORS.length];
      renderer.setSeriesPaint(2 * i, c);
      renderer.setSeriesStroke(2 * i, new BasicStroke(2.5f));
      renderer.setSeriesPaint(2 * i + 1, c);
      renderer.setSeriesStroke(
          2 * i + 1,
          new BasicStroke(
              1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {6, 4}, 0));
    }
    XYPlot plot =
        new XYPlot(data, new NumberAxis("seconds"), new NumberAxis("parallelism"), renderer);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    ((NumberAxis) plot.getRangeAxis()).setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    if (points.stream().anyMatch(p -> p.pending() > 0)) {
      XYSeries lag = new XYSeries("sources' backlog (records, right axis)");
      points.forEach(p -> lag.add(p.t(), p.pending()));
      plot.setDataset(1, new XYSeriesCollection(lag));
      plot.setRangeAxis(1, new NumberAxis("backlog (records)"));
      plot.mapDatasetToRangeAxis(1, 1);
      XYStepRenderer lagRenderer = new XYStepRenderer();
      lagRenderer.setSeriesPaint(0, Color.GRAY);
      lagRenderer.setSeriesStroke(0, new BasicStroke(1.5f));
      plot.setRenderer(1, lagRenderer);
    }
    JFreeChart chart =
        new JFreeChart(
            s.name() + " - " + controller + " (solid) vs oracle (dashed)",
            JFreeChart.DEFAULT_TITLE_FONT,
            plot,
            true);
    chart.setBackgroundPaint(Color.WHITE);
    ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 420);
  }
}
