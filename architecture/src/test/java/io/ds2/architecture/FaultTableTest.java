package io.ds2.architecture;

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

/**
 * Every row of docs/FAULTS.md names tests; every test it names exists, runs (annotated as a test,
 * not disabled), and where the row says it runs on the real API server, its class does.
 */
class FaultTableTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern TEST = Pattern.compile("`(\\w+Test)#(\\w+)`( \\(real server)?");

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
    List<String> notRun = new ArrayList<>();
    List<String> notOnTheServer = new ArrayList<>();
    for (String row : rows) {
      Matcher m = TEST.matcher(row);
      boolean any = false;
      while (m.find()) {
        any = true;
        Path file = testFiles.get(m.group(1));
        String name = m.group(1) + "#" + m.group(2);
        if (file == null) {
          missing.add(name);
          continue;
        }
        String source = Files.readString(file);
        int at = source.indexOf("void " + m.group(2) + "(");
        if (at < 0) {
          missing.add(name);
          continue;
        }
        String before = source.substring(Math.max(0, at - 1200), at);
        String annotations = before.substring(Math.max(before.lastIndexOf("}"), 0));
        if (!(annotations.contains("@Test") || annotations.contains("@Property"))
            || annotations.contains("@Disabled")) {
          notRun.add(name);
        }
        if (m.group(3) != null
            && !(source.contains("@Tag(\"kube-apiserver\")")
                || source.contains("extends RealApiServerBase"))) {
          notOnTheServer.add(name);
        }
      }
      assertTrue(any, "a row without a test: " + row);
    }
    assertEquals(List.of(), missing, "tests named in docs/FAULTS.md that do not exist");
    assertEquals(List.of(), notRun, "tests named in docs/FAULTS.md that do not run");
    assertEquals(List.of(), notOnTheServer, "tests said to run on the real API server that do not");
    assertFalse(testFiles.isEmpty());
  }
}
