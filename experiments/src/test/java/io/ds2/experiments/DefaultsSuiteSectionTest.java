package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DefaultsSuiteSectionTest {
  private static final Path RESULTS = Path.of("results");

  @Test
  void rendersEveryStoredRunWithTheShortfallHoldsItsRecordingShows() throws Exception {
    StringBuilder md = new StringBuilder();
    DefaultsSuiteSection.render(md, RESULTS.resolve("kafka-suite-defaults"));
    String section = md.toString();
    assertTrue(section.startsWith("## The Kafka-fed suite at Flink's defaults"), section);
    for (String scenario :
        new String[] {
          "fanin-step-up", "fanin-step-down", "wordcount", "sub-linear", "few-partitions"
        }) {
      for (String controller : new String[] {"ds2-defaults-u0.7", "ds2-defaults"}) {
        assertTrue(
            section.contains("| " + scenario + " | " + controller + " | 1 |"),
            scenario + " " + controller);
        assertTrue(
            section.contains(
                "results/kafka-suite-defaults/" + scenario + "__" + controller + ".png"),
            scenario + " " + controller);
      }
    }
    // The word count's recording holds two decisions, neither held by the shortfall rule.
    assertTrue(
        section.contains("| wordcount | ds2-defaults | 79 / 79 | 0.08 (0.08 at 1.0) | 0 / 2 |"));
  }

  @Test
  void theFirstPassFollowsAsAnEarlierSet() throws Exception {
    String page = ResultsPage.render(RESULTS);
    int current = page.indexOf("## The Kafka-fed suite at Flink's defaults");
    int earlier = page.indexOf("### Earlier: the first pass at Flink's defaults (2026-12-03)");
    assertTrue(
        current >= 0 && earlier > current, "current at " + current + ", earlier at " + earlier);
    assertEquals(-1, page.indexOf("## At Flink's defaults (first pass)"));
  }
}
