package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The operator image's base is pinned by digest: a rebuild cannot pull different bytes. */
class ImageBaseTest {
  @Test
  void everyFromLineNamesADigest() throws Exception {
    List<String> from =
        Files.readAllLines(Path.of("..", "deploy", "Dockerfile")).stream()
            .filter(l -> l.strip().toUpperCase(java.util.Locale.ROOT).startsWith("FROM "))
            .toList();
    assertFalse(from.isEmpty());
    for (String line : from) {
      assertTrue(line.matches("FROM \\S+@sha256:[0-9a-f]{64}( AS \\S+)?\\s*"), line);
    }
  }
}
