package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each job keeps its newest recordings only; other jobs' files are not touched. */
class RecordingDirTest {
  @TempDir Path dir;

  @Test
  void aNewFileDropsTheJobsOldestBeyondWhatItKeeps() throws Exception {
    RecordingDir recordings = new RecordingDir(dir, 1 << 20, 3);
    Instant t = Instant.parse("2026-12-01T00:00:00Z");
    Files.createFile(dir.resolve("team-a_other_20261130T000000.000Z.jsonl.gz"));
    for (int i = 0; i < 5; i++) {
      Clock at = Clock.fixed(t.plus(Duration.ofHours(i)), ZoneOffset.UTC);
      Files.createFile(recordings.next("team-a", "orders", at));
    }
    List<String> left;
    try (Stream<Path> s = Files.list(dir)) {
      left = s.map(p -> p.getFileName().toString()).sorted().toList();
    }
    assertEquals(
        List.of(
            "team-a_orders_20261201T020000.000Z.jsonl.gz",
            "team-a_orders_20261201T030000.000Z.jsonl.gz",
            "team-a_orders_20261201T040000.000Z.jsonl.gz",
            "team-a_other_20261130T000000.000Z.jsonl.gz"),
        left);
  }
}
