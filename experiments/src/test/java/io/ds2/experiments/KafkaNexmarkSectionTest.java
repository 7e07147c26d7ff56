package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class KafkaNexmarkSectionTest {
  // Nexmark on Kafka at Flink's defaults: ds2 at 0.7, one run of each query so far.
  private static final Path DIR = Path.of("results", "kafka-nexmark-15m");

  @Test
  void showsEachQueryRunAndItsNotes() throws Exception {
    StringBuilder md = new StringBuilder();
    KafkaNexmarkSection.render(md, DIR);
    String page = md.toString();
    for (String q : new String[] {"q1", "q2", "q3", "q5", "q8"}) {
      assertTrue(
          page.contains("| nexmark-" + q + "-15m | ds2-defaults-u0.7 | 1 |"), q + "\n" + page);
    }
    assertTrue(page.contains(KafkaNexmarkSection.NOTES.lines().findFirst().orElseThrow()), page);
    assertFalse(page.contains("Q3_RESULT"), "the notes say what the second Q3 run did");
  }

  @Test
  void rendersNothingWithoutRuns() throws Exception {
    StringBuilder md = new StringBuilder();
    KafkaNexmarkSection.render(md, Path.of("results", "no-such-runs"));
    assertTrue(md.isEmpty());
  }
}
