package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HeadlineSectionTest {
  private static final Path DIR = Path.of("results", "kafka-headline-catch-up");

  @Test
  void showsEveryControllersRunsComparedAndTheNotes() throws Exception {
    StringBuilder md = new StringBuilder();
    HeadlineSection.render(md, DIR);
    String page = md.toString();
    assertTrue(page.contains("| fanin-step-up-long | ds2-defaults-u0.7 | 3: steps "), page);
    assertTrue(page.contains("| fanin-step-up-long | flink-as-1.10-doc-u0.7 | 3: steps "), page);
    assertTrue(page.contains("ds2-defaults-u0.7 (3 runs)"), page);
    assertTrue(page.contains(HeadlineSection.NOTES.lines().findFirst().orElseThrow()), page);
    assertFalse(page.contains("_RESULT"), "every placeholder in the notes is filled");
  }

  @Test
  void rendersNothingWithoutRuns() throws Exception {
    StringBuilder md = new StringBuilder();
    HeadlineSection.render(md, Path.of("results", "no-such-runs"));
    CatchUpWaitSection.renderNexmark(md, Path.of("results", "no-such-runs"));
    assertTrue(md.isEmpty());
  }
}
