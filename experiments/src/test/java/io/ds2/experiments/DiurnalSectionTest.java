package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.experiments.bench.Saso;
import io.ds2.experiments.bench.Stretch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The bar, predictive against reactive from the third day, said with its run counts. */
class DiurnalSectionTest {
  private static Saso.Result run(String controller, double behind, double slots, int rescales) {
    return new Saso.Result(
        "diurnal",
        controller,
        List.of(),
        rescales + 8,
        0,
        2 * slots,
        0,
        0.7,
        0,
        0,
        0,
        0,
        4680,
        behind + 200,
        new Stretch(2400, 2400, behind, slots, rescales, 1000, 0, behind),
        0,
        null,
        4800,
        1);
  }

  private static SuiteSection.Cell cell(String controller, int runs, double behind, double slots) {
    List<Saso.Result> r = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      r.add(run(controller, behind + i, slots + i, 6));
    }
    return new SuiteSection.Cell("diurnal", controller, r);
  }

  /** Reactive behind 100 s at 10,000 slot-seconds, predictive as given; {@code runs} each. */
  private static String verdict(int runs, double behind, double slots) {
    return DiurnalSection.verdict(
        List.of(
            cell(DiurnalSection.REACTIVE, runs, 100, 10_000),
            cell(DiurnalSection.PREDICTIVE, runs, behind, slots)));
  }

  @Test
  void threeRunsEachAreJudgedOnEveryFigure() {
    String v = verdict(3, 40, 10_500);
    assertTrue(v.contains("behind 41 s against reactive 101 s (41 % of it: holds"), v);
    assertTrue(v.contains("by the records' age 41 s against 101 s (41 % of it: holds)"), v);
    assertTrue(v.contains("1.05 x its slot-seconds (holds"), v);
    assertTrue(v.contains("6 rescales against 6 (holds"), v);
    assertTrue(!v.contains("not yet judged"), v);
  }

  @Test
  void aFailedFigureSaysSoAndFewRunsAreNotJudged() {
    String v = verdict(1, 80, 12_000);
    assertTrue(v.contains("80 % of it: fails"), v);
    assertTrue(v.contains("1.20 x its slot-seconds (fails"), v);
    assertTrue(v.contains("1 and 1 run(s): shown, not yet judged"), v);
  }

  @Test
  void withoutTheReactiveRunsThereIsNoVerdict() {
    String v = DiurnalSection.verdict(List.of(cell(DiurnalSection.PREDICTIVE, 3, 40, 10_500)));
    assertTrue(v.startsWith("No verdict yet"), v);
  }

  @Test
  void runsBeforeScaleUpToleranceShowUnderTheirOwnHeading(@TempDir Path dir) throws IOException {
    Path earlier = Files.createDirectories(dir.resolve("diurnal"));
    Files.copy(Path.of("results", "diurnal", "runs.json"), earlier.resolve("runs.json"));
    StringBuilder md = new StringBuilder();
    assertFalse(DiurnalSection.render(md, dir.resolve("diurnal-headroom"), earlier));
    assertEquals("", md.toString(), "no runs on the newest code: nothing");
    DiurnalSection.renderEarlier(md, earlier, DiurnalEarlier.BEFORE_TOLERANCE, true);
    String page = md.toString();
    assertTrue(
        page.startsWith("### Earlier: the diurnal benchmark before scale-up-tolerance"), page);
    assertTrue(page.contains("| " + DiurnalSection.PREDICTIVE + " | "), page);
    assertTrue(page.contains("| " + DiurnalSection.REACTIVE + " | "), page);
    // Alone, they carry the benchmark's description.
    StringBuilder alone = new StringBuilder();
    DiurnalSection.renderEarlier(alone, earlier, DiurnalEarlier.BEFORE_TOLERANCE, false);
    assertTrue(alone.toString().startsWith("## Forecasting recurring load"), alone.toString());
    assertTrue(alone.toString().contains("### Earlier: the diurnal benchmark"), alone.toString());
  }

  /**
   * Each earlier set of ds2's runs with both controllers: the runs stored in {@code results/<its
   * dir>}, rendered under its own heading (the set before scale-up-tolerance, with the peers' runs,
   * has a test of its own above).
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "TO_LATEST | ### Earlier: a scale-down joining a rescale only within a window",
        "LEAD      | ### Earlier: a scale-down to the highest since the need fell",
        "TOGETHER  | ### Earlier: the lead time counting one window",
        "APART     | ### Earlier: the two controllers run apart",
        "FULL_PEAK | ### Earlier: the forecast sized for its full peak",
        "HEADROOM  | ### Earlier: the feed on a monotonic clock"
      })
  void anEarlierSetShowsUnderItsOwnHeading(
      DiurnalEarlier earlier, String heading, @TempDir Path dir) throws IOException {
    String name = earlier.dir;
    Path runs = Files.createDirectories(dir.resolve(name));
    Files.copy(Path.of("results", name, "runs.json"), runs.resolve("runs.json"));
    StringBuilder md = new StringBuilder();
    assertTrue(DiurnalSection.renderEarlier(md, runs, earlier, true));
    String page = md.toString();
    assertTrue(page.startsWith(heading), page);
    // Only the sets whose notes predate the rescoring say so; the newest earlier sets' were
    // written after it.
    assertEquals(
        earlier != DiurnalEarlier.LEAD && earlier != DiurnalEarlier.TO_LATEST,
        page.contains("Rescored on 2026-12-06"),
        page);
    assertTrue(page.contains("| " + DiurnalSection.PREDICTIVE + " | 3 | "), page);
    assertTrue(page.contains("| " + DiurnalSection.REACTIVE + " | 3 | "), page);
    StringBuilder alone = new StringBuilder();
    assertTrue(DiurnalSection.renderEarlier(alone, runs, earlier, false));
    assertTrue(alone.toString().startsWith("## Forecasting recurring load"), alone.toString());
    assertFalse(
        DiurnalSection.renderEarlier(new StringBuilder(), dir.resolve("none"), earlier, true));
  }

  @Test
  void thePeersRunsStandBesideTheNewestDs2Runs(@TempDir Path dir) throws IOException {
    Path earlier = Files.createDirectories(dir.resolve("diurnal"));
    Files.copy(Path.of("results", "diurnal", "runs.json"), earlier.resolve("runs.json"));
    Path newest = Files.createDirectories(dir.resolve("diurnal-headroom"));
    Files.copy(Path.of("results", "diurnal-headroom", "runs.json"), newest.resolve("runs.json"));
    StringBuilder md = new StringBuilder();
    assertTrue(DiurnalSection.render(md, newest, earlier));
    String page = md.toString();
    String table =
        page.substring(
            page.indexOf("| controller |"), page.indexOf("\n\n", page.indexOf("| controller |")));
    assertTrue(table.contains("| flink-as-1.10-doc-u0.7 (`results/diurnal/`) | 3 | "), table);
    // ds2's own rows come from the newest runs only, never from the earlier directory.
    assertEquals(1, table.split("\\| " + DiurnalSection.REACTIVE + " \\|", -1).length - 1, table);
    assertEquals(1, table.split("\\| " + DiurnalSection.PREDICTIVE + " \\|", -1).length - 1, table);
  }
}
