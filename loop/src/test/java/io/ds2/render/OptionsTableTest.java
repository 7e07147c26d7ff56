package io.ds2.render;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/options.md's option table is the one generated from the options class. */
class OptionsTableTest {
  @Test
  void theOptionsPageListsEveryOptionAsDocumented() throws Exception {
    String readme = Files.readString(Path.of("..", "docs", "options.md"));
    assertTrue(
        readme.contains(OptionsTable.markdown()),
        "docs/options.md must contain the output of 'bin/ds2 options':\n"
            + OptionsTable.markdown());
  }
}
