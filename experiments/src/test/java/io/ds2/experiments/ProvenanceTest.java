package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every section's data line: dates and commits read from the data, never assumed. */
class ProvenanceTest {
  @TempDir Path dir;

  private void recording(String name, String createdAt, String commit) throws Exception {
    String options = commit == null ? "{}" : "{\"commit\":\"" + commit + "\"}";
    String header =
        "{\"type\":\"header\",\"createdAt\":\""
            + createdAt
            + "\",\"config\":{\"options\":"
            + options
            + "}}\n{\"type\":\"sample\"}\n";
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve(name)))) {
      out.write(header.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void recordingsAreCountedByCommitInTheOrderTheyWereMade() throws Exception {
    recording("a__x.jsonl.gz", "2026-12-03T10:00:00Z", "bbbbbbb");
    recording("b__x.jsonl.gz", "2026-12-02T10:00:00Z", null);
    recording("c__x.jsonl.gz", "2026-12-04T10:00:00Z", "bbbbbbb");
    // Made later the same day under a name that sorts first: ordered by time, not by name.
    recording("0__x.jsonl.gz", "2026-12-04T12:00:00Z", "0000000");
    recording("d__x.jsonl.gz", "2026-12-04T11:00:00Z", "aaaaaaa00000-dirty");
    Files.writeString(dir.resolve("a__x.csv"), "not a recording");

    assertEquals(
        "`results/r/`: 5 recordings, made 2026-12-02 to 2026-12-04, at bbbbbbb (2),"
            + " aaaaaaa-dirty (1), 0000000 (1); 1 with no commit recorded.\n\n",
        Provenance.recordings(dir, "results/r/"));
  }

  @Test
  void aRecordingThatCannotBeReadIsCountedNotGuessedAt() throws Exception {
    recording("a__x.jsonl.gz", "2026-12-03T10:00:00Z", "bbbbbbb");
    // Cut short while the bench wrote it: not even a whole gzip header.
    Files.write(dir.resolve("b__x.jsonl.gz"), new byte[] {0x1f});

    assertEquals(
        "`results/r/`: 1 recording, made 2026-12-03, at bbbbbbb. 1 more could not be read.\n\n",
        Provenance.recordings(dir, "results/r/"));
  }

  @Test
  void benchmarkFilesGiveTheirRunsDatesAndCommits() throws Exception {
    System.setProperty("ds2.commit", "ccccccc");
    try {
      Bench.writeResults(dir.resolve("fleet.json"), "fleet", List.of(), null);
      Bench.writeResults(dir.resolve("fleet-r2.json"), "fleet", List.of(), null);
    } finally {
      System.clearProperty("ds2.commit");
    }
    String today = java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString();
    // Written before the benchmarks stamped their commit.
    Files.writeString(
        dir.resolve("fleet-r3.json"), "{\"measuredAt\":\"2026-12-01T00:00:00Z\",\"results\":[]}");

    String line = Provenance.benchmark(dir, "fleet");

    assertEquals(
        "`fleet`: 3 runs, made 2026-12-01 to "
            + today
            + ", at ccccccc (2); 1 with no commit recorded.\n\n",
        line);
  }

  @Test
  void aRunThatNamesNoCommitSaysSo() throws Exception {
    Files.writeString(
        dir.resolve("soak.json"), "{\"measuredAt\":\"2026-12-05T01:05:36Z\",\"results\":[]}");

    assertEquals(
        "`soak`: 1 run, made 2026-12-05, no commit recorded.\n\n",
        Provenance.benchmark(dir, "soak"));
  }

  @Test
  void nothingIsSaidOfDataThatIsNotThere() throws Exception {
    assertEquals("", Provenance.benchmark(dir, "soak"));
    assertEquals("", Provenance.recordings(dir.resolve("absent"), "results/absent/"));
    assertTrue(Provenance.recordings(dir, "results/r/").isEmpty());
  }
}
