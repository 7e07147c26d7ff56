package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.experiments.scale.SoakBenchmark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak's section: a long run shown cycle by cycle, an older run as it was measured. */
class SoakSectionTest {
  @TempDir Path dir;

  /** A run of {@code minutes}, read every 30 s, its series saw-toothing within each 300 s. */
  private Path run(int minutes, boolean withCycles) throws Exception {
    List<SoakBenchmark.Sample> samples = new ArrayList<>();
    for (int t = 30; t < minutes * 60; t += 30) {
      samples.add(
          new SoakBenchmark.Sample(
              t + 0.1,
              48 + (t % 300) / 100.0,
              52,
              4,
              180,
              t % 300 < 150 ? 3521 : 3801,
              200,
              t * 20L,
              t * 2L,
              0));
    }
    var r =
        new SoakBenchmark.Result(
            200,
            minutes,
            150,
            300,
            samples,
            0,
            0,
            0,
            0,
            0,
            minutes * 20,
            1000,
            100,
            0,
            Map.of(),
            200,
            withCycles ? 600 : 0);
    Path file = dir.resolve("soak-" + minutes + ".json");
    Bench.writeResults(file, "soak", List.of(r), null);
    if (!withCycles) {
      ObjectMapper m = new ObjectMapper();
      ObjectNode root = (ObjectNode) m.readTree(file.toFile());
      ((ObjectNode) root.get("results").get(0)).remove("cycleSeconds");
      m.writeValue(file.toFile(), root);
    }
    return file;
  }

  @Test
  void aLongRunIsShownOneRowPerCycleAndSummedUpFromItsData() throws Exception {
    StringBuilder md = new StringBuilder();
    SoakSection.render(md, run(120, true));
    String page = md.toString();
    assertTrue(page.contains("| 0-300 (start-up) | 48.3-50.7 MiB |"), page);
    assertTrue(page.contains("| 7200-7500 |") == false && page.contains("| 6900-7200 |"), page);
    assertTrue(page.contains("the means of the whole cycles after the first (23 of"), page);
    assertTrue(page.contains("over the 23 whole cycles after the first"), page);
    assertTrue(page.contains("metric series between 3,521 and 3,801"), page);
    assertTrue(page.contains("open connections at 4"), page);
    assertTrue(page.contains("deletes an event 10 min after its last update"), page);
    assertFalse(page.contains("| 30 | "), "no row per reading:\n" + page);
  }

  @Test
  void aRunMeasuredBeforeCyclesSaysHowItsSlopesWereFitted() throws Exception {
    StringBuilder md = new StringBuilder();
    SoakSection.render(md, run(10, false));
    String page = md.toString();
    assertTrue(page.contains("predates fitting over whole cycles"), page);
    assertTrue(page.contains("| 30 | 48.3 MiB |"), page);
    assertTrue(page.contains("kept every event"), page);
  }
}
