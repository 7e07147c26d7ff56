package io.ds2.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.commandline.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The checked examples of README.md and docs/ are what their commands print: each block after an
 * {@code <!-- example: ARGS -->} line is run ({@code bin/ds2 ARGS}, paths from the repository's
 * root) and must appear in the output, line for line. To bring one up to date, paste the output
 * this test shows.
 */
class ReadmeExamplesTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern EXAMPLE =
      Pattern.compile("<!-- example: (.+?) -->\\n```\\n(.*?)```", Pattern.DOTALL);

  @Test
  void everyCheckedExampleIsWhatItsCommandPrints() throws Exception {
    StringBuilder docs = new StringBuilder(Files.readString(ROOT.resolve("README.md")));
    try (var files = Files.list(ROOT.resolve("docs"))) {
      for (Path f : files.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
        docs.append(Files.readString(f));
      }
    }
    Matcher m = EXAMPLE.matcher(docs);
    int checked = 0;
    while (m.find()) {
      List<String> args = new ArrayList<>();
      for (String a : m.group(1).strip().split("\\s+")) {
        // A path in the repository (docs/examples/...), not a word that names a module too
        // (whatif).
        args.add(a.contains("/") && Files.exists(ROOT.resolve(a)) ? ROOT.resolve(a).toString() : a);
      }
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertEquals(ExitCodes.OK, run.exitCode(), run.err());
      String shown = m.group(2);
      assertTrue(
          run.out().contains(shown),
          "Checked example of `bin/ds2 "
              + m.group(1)
              + "` is out of date; it prints:\n"
              + run.out());
      checked++;
    }
    assertTrue(checked >= 1, "no checked example found");
  }
}
