package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.commandline.ExitCodes;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The replay's "Recorded events": in time order, vertices by name, no Java object text, and the
 * count it announces is what it lists.
 */
class WhatIfRecordedEventsTest {
  private static final Path RECORDING =
      Path.of("..", "experiments", "results", "suite", "wordcount__ds2.jsonl.gz");

  @Test
  void theRecordedEventsReadAsTheyHappenedByName() {
    CliRun run = CliRun.of("whatif", "--recording", RECORDING.toString());
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    String section = run.out().substring(run.out().indexOf("Recorded events: "));
    section = section.substring(0, section.indexOf("\n\n"));
    List<String> lines = section.lines().toList();
    int announced = Integer.parseInt(lines.get(0).replaceAll("\\D+", ""));
    List<String> events = lines.subList(1, lines.size());
    assertEquals(announced, events.size(), section);
    List<Instant> times = events.stream().map(l -> Instant.parse(l.strip().split(" ")[0])).toList();
    assertEquals(times.stream().sorted().toList(), times, "in time order: " + section);
    assertFalse(section.contains("Applied["), section);
    assertFalse(section.matches("(?s).*\\b[0-9a-f]{32}\\b.*"), "vertex ids instead of names");
    assertTrue(section.contains("rescale-applied: applied {Source: Sentences=1, FlatMap=10"));
  }
}
