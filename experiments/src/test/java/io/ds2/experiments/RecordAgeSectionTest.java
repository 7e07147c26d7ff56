package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RecordAgeSectionTest {
  // ds2 with the record-age rule on Nexmark Q1, Q2 and Q5 and the headline: two runs of Q1 and Q2,
  // one of the others.
  private static final Path DIR = Path.of("results", "record-age");

  @Test
  void showsEachQuerysRunAndTheNotes() throws Exception {
    StringBuilder md = new StringBuilder();
    RecordAgeSection.render(md, DIR);
    String page = md.toString();
    for (String q : new String[] {"nexmark-q1-15m", "nexmark-q2-15m"}) {
      assertTrue(page.contains("| " + q + " | ds2-defaults-u0.7 | 2: steps "), q);
    }
    for (String q : new String[] {"nexmark-q5-15m", "fanin-step-up-long"}) {
      assertTrue(page.contains("| " + q + " | ds2-defaults-u0.7 | 1 |"), q);
    }
    assertTrue(page.contains(RecordAgeSection.NOTES.lines().findFirst().orElseThrow()), page);
    assertFalse(page.contains("_RESULT"), "every placeholder in the notes is filled");
  }

  @Test
  void rendersNothingWithoutRuns() throws Exception {
    StringBuilder md = new StringBuilder();
    RecordAgeSection.render(md, Path.of("results", "no-such-runs"));
    assertTrue(md.isEmpty());
  }
}
