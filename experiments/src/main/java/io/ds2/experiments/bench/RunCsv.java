package io.ds2.experiments.bench;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code <recording>.csv}: one row per second with parallelism and oracle per operator. */
final class RunCsv {
  private RunCsv() {}

  static void write(Scenario s, Path recording, List<Saso.Point> points) throws IOException {
    List<String> ops = new ArrayList<>(s.oracle(0).keySet());
    Path csv =
        recording.resolveSibling(recording.getFileName().toString().replace(".jsonl.gz", ".csv"));
    try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      w.write("seconds,phase,slots,pending_records");
      for (String op : ops) {
        w.write("," + op + "," + op + "_oracle");
      }
      w.write("\n");
      for (Saso.Point p : points) {
        w.write(
            String.format(
                Locale.ROOT, "%.1f,%d,%d,%.0f", p.t(), p.phase(), p.slots(), p.pending()));
        for (String op : ops) {
          w.write("," + p.parallelism().getOrDefault(op, 0) + "," + s.oracle(p.phase()).get(op));
        }
        w.write("\n");
      }
    }
  }
}
