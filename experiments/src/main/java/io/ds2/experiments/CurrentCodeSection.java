package io.ds2.experiments;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The headline scenario run again on the code of the day: ds2 since its last change to what the
 * headline exercises, and the DS2 paper's policy on the same estimate and windows, so that the
 * headline's three runs per row (made on earlier code) are not read as today's without a check.
 */
final class CurrentCodeSection {
  static final String NOTES = "";

  private CurrentCodeSection() {}

  static void render(StringBuilder md, Path dir) throws IOException {
    List<SuiteSection.Cell> cells = SuiteSection.stored(dir);
    if (cells.isEmpty()) {
      return;
    }
    md.append(
        """
        ### The headline on today's code, with the DS2 paper's policy

        The headline scenario as above (`bin/ds2-bench suite --feed kafka --cluster
        flink-defaults --scenarios fanin-step-up-long --controllers CONTROLLER --repeats N
        --out experiments/results/kafka-headline-current`), run on the code of the day: ds2 at
        its defaults and 0.7 (`ds2-defaults-u0.7`), and the DS2 paper's policy on the same
        estimate, windows and target (`ds2-paper-defaults-u0.7`: act on the latest estimate
        once two windows agree, no scale-down delay, no step limits, DS2's even-keys bound for
        the keyed Join). Columns as in the headline; the runs column says how many there are so
        far.

        """);
    FlinkDefaultsSection.tables(md, dir, cells);
    KafkaDefaultFetchSection.comparisons(md, cells);
    if (!NOTES.isEmpty()) {
      md.append("\n").append(NOTES).append("\n");
    }
    FlinkDefaultsSection.plots(md, dir, cells);
  }
}
