package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CurrentCodeSectionTest {
  // The headline scenario run on the code of the day: three runs of ds2 and of the paper's policy.
  private static final Path DIR = Path.of("results", "kafka-headline-current");

  @Test
  void showsEachControllersThreeRunsAndComparesThem() throws Exception {
    StringBuilder md = new StringBuilder();
    CurrentCodeSection.render(md, DIR);
    String page = md.toString();
    assertTrue(page.contains("| fanin-step-up-long | ds2-defaults-u0.7 | 3: "), page);
    assertTrue(page.contains("| fanin-step-up-long | ds2-paper-defaults-u0.7 | 3: "), page);
    assertTrue(page.contains("ds2-defaults-u0.7 (3 runs)"), page);
    assertTrue(page.contains("ds2-paper-defaults-u0.7 (3 runs)"), page);
    assertFalse(page.contains("not compared"), page);
    assertTrue(page.contains(CurrentCodeSection.NOTES.lines().findFirst().orElseThrow()), page);
  }
}
