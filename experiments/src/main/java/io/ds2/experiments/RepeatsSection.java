package io.ds2.experiments;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The headline runs at Flink's and Kafka's defaults, each controller at target utilization 0.7,
 * three runs each: their median with min–max, ds2 beside each peer figure by figure.
 */
final class RepeatsSection {
  static final String NOTES =
      """
      Notes: not written yet.
      """;

  private RepeatsSection() {}

  static void render(StringBuilder md, Path dir) throws IOException {
    List<SuiteSection.Cell> cells = SuiteSection.stored(dir);
    if (cells.isEmpty()) {
      return;
    }
    md.append(
        """
        ## Headline: at Flink's and Kafka's defaults, ds2 and the Flink autoscaler at 0.7, three runs each

        The fan-in job (chained, sources sized, a Kafka topic of 12 partitions per source) on a
        cluster at Flink's defaults (10 s metric refresh, default network buffers and
        cool-downs), its consumers at Kafka's defaults (1 MiB fetched per partition), over the
        long step-up (15 min at x1, then 15 min at x2), every controller sizing for 0.7 busy:
        ds2 at its defaults otherwise (`ds2-defaults-u0.7`) and the Flink autoscaler 1.10 at
        its documentation's example settings (`flink-as-1.10-doc-u0.7`). Three runs of each
        (`bin/ds2-bench suite --feed kafka --cluster flink-defaults --scenarios
        fanin-step-up-long --controllers CONTROLLER --repeats 1,2,3 --out
        experiments/results/kafka-default-fetch-repeats`; each recording names the commit it
        ran), scored from their recordings (`bin/ds2-bench rescore --out ...`). Each row shows
        the median run (median rescales, then slot-seconds) with the range over the runs;
        *slot-s / oracle* is against the 98 %-busy oracle, and in brackets against the oracle
        at the controller's own target (the fewest slots keeping every subtask below 0.7).

        """);
    FlinkDefaultsSection.tables(md, dir, cells);
    KafkaDefaultFetchSection.comparisons(md, cells);
    md.append("\n").append(NOTES).append("\n");
    FlinkDefaultsSection.plots(md, dir, cells);
  }
}
