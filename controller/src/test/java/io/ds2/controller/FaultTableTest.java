package io.ds2.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every row of docs/FAULTS.md names tests, and every test it names exists. */
class FaultTableTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern TEST = Pattern.compile("`(\\w+Test)#(\\w+)`");

  @Test
  void everyRowNamesTestsThatExist() throws IOException {
    Map<String, Path> testFiles;
    try (Stream<Path> files = Files.walk(ROOT, 12)) {
      testFiles =
          files
              .filter(
                  p ->
                      p.toString().contains("/src/test/java/")
                          && p.toString().endsWith("Test.java"))
              .collect(
                  Collectors.toMap(
                      p -> p.getFileName().toString().replace(".java", ""), p -> p, (a, b) -> a));
    }
    List<String> rows =
        Files.readAllLines(ROOT.resolve("docs/FAULTS.md")).stream()
            .filter(l -> l.startsWith("| ") && !l.startsWith("| fault "))
            .toList();
    assertTrue(rows.size() >= 25, "rows: " + rows.size());
    List<String> missing = new ArrayList<>();
    for (String row : rows) {
      Matcher m = TEST.matcher(row);
      boolean any = false;
      while (m.find()) {
        any = true;
        Path file = testFiles.get(m.group(1));
        if (file == null || !Files.readString(file).matches("(?s).*void " + m.group(2) + "\\(.*")) {
          missing.add(m.group(1) + "#" + m.group(2));
        }
      }
      assertTrue(any, "a row without a test: " + row);
    }
    assertEquals(List.of(), missing, "tests named in docs/FAULTS.md that do not exist");
    assertFalse(testFiles.isEmpty());
  }
}
