package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CatchUpWaitSectionTest {
  @Test
  void showsTheHeadlinesRunsAndTheNotes() throws Exception {
    StringBuilder md = new StringBuilder();
    CatchUpWaitSection.renderHeadline(md, Path.of("results", "kafka-headline-catch-up"));
    String page = md.toString();
    assertTrue(
        page.contains("| fanin-step-up-long | ds2-defaults-u0.7 | " + RUNS + ": steps "), page);
    assertTrue(
        page.contains(CatchUpWaitSection.HEADLINE_NOTES.lines().findFirst().orElseThrow()), page);
    assertFalse(page.contains("_RESULT"), "every placeholder in the notes is filled");
  }

  // Runs of the headline stored so far.
  private static final int RUNS = 2;

  @Test
  void rendersNothingWithoutRuns() throws Exception {
    StringBuilder md = new StringBuilder();
    CatchUpWaitSection.renderHeadline(md, Path.of("results", "no-such-runs"));
    CatchUpWaitSection.renderNexmark(md, Path.of("results", "no-such-runs"));
    assertTrue(md.isEmpty());
  }
}
