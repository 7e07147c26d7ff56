package io.ds2.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's recordings: rotated into files that each replay alone, and best effort — a full
 * disk stops the recording with one message, never the loop writing to it.
 */
class RecordingWriterTest {
  @TempDir Path dir;

  private static final Recorded.Topology TOPOLOGY =
      new Recorded.Topology(
          ChainRecording.START, ChainRecording.TOPOLOGY, Map.of("src", 1, "op", 1));

  @Test
  void aFullFileContinuesInANewOneThatStartsWithHeaderAndTopology() throws Exception {
    AtomicInteger n = new AtomicInteger();
    List<Path> files = new ArrayList<>();
    try (RecordingWriter w =
        RecordingWriter.rotating(
            () -> {
              Path p = dir.resolve("r" + n.incrementAndGet() + ".jsonl.gz");
              files.add(p);
              return p;
            },
            4_000,
            why -> {
              throw new AssertionError(why);
            })) {
      w.write(ChainRecording.header());
      w.write(TOPOLOGY);
      for (int t = 0; t < 40; t++) {
        w.write(new Recorded.Sample(ChainRecording.sample(t, 100, 200)));
      }
    }
    assertTrue(files.size() >= 3, files.toString());
    int samples = 0;
    for (Path f : files) {
      try (RecordingReader r = RecordingReader.open(f, false)) {
        assertEquals(ChainRecording.header(), r.header());
        assertInstanceOf(Recorded.Topology.class, r.next().orElseThrow());
        for (Optional<Recorded> next = r.next(); next.isPresent(); next = r.next()) {
          assertInstanceOf(Recorded.Sample.class, next.get());
          samples++;
        }
      }
    }
    assertEquals(40, samples, "every sample in exactly one file");
  }

  /** /dev/full answers every write with ENOSPC: a full disk, for real. */
  @Test
  void aFullDiskStopsTheRecordingOnceAndNeverTheWriter() throws Exception {
    Path full = Path.of("/dev/full");
    assertTrue(Files.isWritable(full), "this test needs /dev/full");
    List<String> said = new ArrayList<>();
    RecordingWriter w = RecordingWriter.rotating(() -> full, 1 << 20, said::add);
    w.write(ChainRecording.header());
    for (int t = 0; t < 5; t++) {
      w.write(new Recorded.Sample(ChainRecording.sample(t, 100, 200)));
    }
    w.close();
    assertEquals(1, said.size(), said.toString());
    assertTrue(said.get(0).startsWith("cannot write recording /dev/full: "), said.get(0));
    assertTrue(said.get(0).endsWith("; recording stops, scaling goes on"), said.get(0));
    RecordingWriter strict = RecordingWriter.create(full);
    assertThrows(UncheckedIOException.class, () -> strict.write(ChainRecording.header()));
  }
}
