package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.commandline.ExitCodes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What docs/cli.md promises of bad input: a window under 10 s is said to be short, an unwritable
 * report is refused before the replay, and a damaged recording is described in ds2's words, never a
 * library's.
 */
class PromisesKeptTest {
  @TempDir Path dir;

  private int lineOfTheDamage;

  /**
   * A committed recording's lines up to its first topology record, then {@code line} (whose line
   * number is left in {@link #lineOfTheDamage}).
   */
  private Path recordingWith(String line) throws Exception {
    Path committed = Path.of("..", "experiments", "results", "suite", "wordcount__ds2.jsonl.gz");
    StringBuilder head = new StringBuilder();
    lineOfTheDamage = 1;
    try (var in = new GZIPInputStream(Files.newInputStream(committed))) {
      for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
        head.append(l).append('\n');
        lineOfTheDamage++;
        if (l.startsWith("{\"type\":\"topology\"")) {
          break;
        }
      }
    }
    Path file = dir.resolve("damaged.jsonl");
    Files.writeString(file, head + line + "\n");
    return file;
  }

  @Test
  void aWindowShorterThanTheRecordingsMetricRefreshIsSaidToBe() throws Exception {
    Path file = recordingWith("");
    // The committed recording's cluster refreshed metrics every second; this one every 10 s.
    Files.writeString(
        file,
        Files.readString(file).replace("\"metricRefreshMs\":1000", "\"metricRefreshMs\":10000"));
    CliRun shortWindow = CliRun.of("whatif", "--recording", file.toString(), "--window", "5s");
    assertEquals(ExitCodes.OK, shortWindow.exitCode(), shortWindow.err());
    assertTrue(
        shortWindow.err().contains("warning: --window 5s is shorter than the recording's metric"),
        shortWindow.err());
    CliRun longEnough = CliRun.of("whatif", "--recording", file.toString(), "--window", "10s");
    assertFalse(longEnough.err().contains("warning"), longEnough.err());
  }

  @Test
  void anUnwritableReportIsRefusedBeforeTheReplay() throws Exception {
    Path report = dir.resolve("missing").resolve("r.html");
    CliRun run =
        CliRun.of(
            "whatif", "--recording", recordingWith("").toString(), "--report", report.toString());
    assertEquals(ExitCodes.USAGE, run.exitCode());
    assertEquals("", run.out(), "nothing replayed");
    assertEquals(1, run.errLines().length, run.err());
    assertTrue(
        run.err().contains("--report: cannot write " + report + ": its directory"), run.err());
    assertFalse(run.err().contains("java."), run.err());
  }

  @Test
  void damagedLinesAreDescribedInOurWords() throws Exception {
    String huge = "9".repeat(2000);
    for (String line :
        List.of(
            "{\"type\":\"sample\", nope}",
            "{\"type\":\"sample\",\"timeMs\":" + huge + "}",
            "{\"type\":\"sample\",\"timeMs\":")) {
      lineOfTheDamage = 0;
      CliRun run = CliRun.of("whatif", "--recording", recordingWith(line).toString());
      assertEquals(ExitCodes.RUNTIME, run.exitCode(), run.err());
      assertEquals(1, run.errLines().length, run.err());
      assertTrue(
          run.err().contains("damaged.jsonl:" + lineOfTheDamage + ": not valid JSON"), run.err());
      for (String internal : List.of("code 110", "StreamReadConstraints", "Jackson", "java.")) {
        assertFalse(run.err().contains(internal), run.err());
      }
    }
  }

  @Test
  void aCounterBeyondAnyDoubleIsOutOfRangeNotInfinity() throws Exception {
    Path good = Path.of("..", "experiments", "results", "suite", "wordcount__ds2.jsonl.gz");
    String sample;
    try (var in = new GZIPInputStream(Files.newInputStream(good))) {
      sample =
          new String(in.readAllBytes(), StandardCharsets.UTF_8)
              .lines()
              .filter(l -> l.startsWith("{\"type\":\"sample\""))
              .findFirst()
              .orElseThrow();
    }
    String damaged = sample.replaceFirst("\"numRecordsIn\":\\[[0-9.]+", "\"numRecordsIn\":[1e400");
    CliRun run = CliRun.of("whatif", "--recording", recordingWith(damaged).toString());
    assertEquals(ExitCodes.RUNTIME, run.exitCode(), run.err());
    assertTrue(run.err().contains("out of range"), run.err());
    assertFalse(run.err().contains("Infinity"), run.err());
  }
}
