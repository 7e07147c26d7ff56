package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class KafkaNexmarkSectionTest {
  // Nexmark on Kafka at Flink's defaults: ds2 and the Flink autoscaler at 0.7, one run each and
  // a second of ds2 on Q1, Q2, Q3 and Q5.
  private static final Path DIR = Path.of("results", "kafka-nexmark-15m");

  @Test
  void showsEachQueryRunOfBothControllersSideBySideAndTheNotes() throws Exception {
    StringBuilder md = new StringBuilder();
    KafkaNexmarkSection.render(md, DIR);
    String page = md.toString();
    for (String q : new String[] {"q1", "q2", "q3", "q5", "q8", "q11"}) {
      for (String c : new String[] {"ds2-defaults-u0.7", "flink-as-1.10-doc-u0.7"}) {
        boolean second = c.startsWith("ds2") && !q.equals("q8") && !q.equals("q11");
        String runs = second ? " | 2: steps " : " | 1 |";
        assertTrue(page.contains("| nexmark-" + q + "-15m | " + c + runs), q + " " + c);
      }
    }
    assertTrue(
        page.contains(
            "| nexmark-q11-15m | ds2-defaults-u0.7 (1 run) | flink-as-1.10-doc-u0.7 (1 run) |"),
        page);
    assertTrue(page.contains(KafkaNexmarkSection.NOTES.lines().findFirst().orElseThrow()), page);
    assertFalse(page.contains("_RESULT"), "every placeholder in the notes is filled");
  }

  @Test
  void rendersNothingWithoutRuns() throws Exception {
    StringBuilder md = new StringBuilder();
    KafkaNexmarkSection.render(md, Path.of("results", "no-such-runs"));
    assertTrue(md.isEmpty());
  }
}
