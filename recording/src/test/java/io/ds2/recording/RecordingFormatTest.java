package io.ds2.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.split.Split;
import io.ds2.core.split.SplitOwnership;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SourceFetch;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordingFormatTest {
  @TempDir Path dir;

  @Test
  void everyRecordReadsBackAsWritten() throws Exception {
    for (String name : List.of("r.jsonl", "r.jsonl.gz")) {
      Path file = ChainRecording.write(dir.resolve(name), 3, 100, 200);
      try (RecordingReader r = RecordingReader.open(file, false)) {
        assertEquals(ChainRecording.header(), r.header());
        Recorded.Topology t = assertInstanceOf(Recorded.Topology.class, r.next().orElseThrow());
        assertEquals(
            ChainRecording.TOPOLOGY.graph().topologicalOrder(),
            t.topology().graph().topologicalOrder());
        assertEquals(ChainRecording.TOPOLOGY.graph().edges(), t.topology().graph().edges());
        assertEquals(Map.of("src", 1, "op", 1), t.parallelism());
        for (int i = 0; i <= 3; i++) {
          Recorded.Sample s = assertInstanceOf(Recorded.Sample.class, r.next().orElseThrow());
          assertEquals(ChainRecording.sample(i, 100, 200), s.sample());
        }
        Recorded.Event e = assertInstanceOf(Recorded.Event.class, r.next().orElseThrow());
        assertEquals("problem", e.kind());
        assertEquals(Optional.empty(), r.next());
      }
    }
  }

  @Test
  void aMissingMetricIsNullNeverZero() throws Exception {
    SubtaskSample missing =
        new SubtaskSample(
            0,
            OptionalDouble.empty(),
            OptionalDouble.of(5),
            OptionalDouble.empty(),
            OptionalDouble.of(1),
            OptionalDouble.of(0));
    JobSample s =
        new JobSample(
            Instant.ofEpochMilli(1000),
            "RUNNING",
            Instant.EPOCH,
            OptionalLong.empty(),
            Map.of(
                "v",
                new VertexSample("v", "RUNNING", 1, List.of(missing), OptionalDouble.empty())));
    Path file = dir.resolve("m.jsonl");
    try (RecordingWriter w = RecordingWriter.create(file)) {
      w.write(ChainRecording.header());
      w.write(new Recorded.Sample(s));
    }
    String line = Files.readAllLines(file, StandardCharsets.UTF_8).get(1);
    assertTrue(line.contains("\"numRecordsIn\":[null]"), line);
    assertTrue(line.contains("\"pendingRecords\":null"), line);
    assertTrue(line.contains("\"numRestarts\":null"), line);
    try (RecordingReader r = RecordingReader.open(file, false)) {
      assertEquals(s, ((Recorded.Sample) r.next().orElseThrow()).sample());
    }
  }

  @Test
  void unknownFieldsAndRecordTypesAreIgnored() throws Exception {
    Path file = ChainRecording.write(dir.resolve("u.jsonl"), 2, 100, 200);
    List<String> lines = new java.util.ArrayList<>(Files.readAllLines(file));
    lines.add(2, "{\"type\":\"annotation\",\"timeMs\":1,\"text\":\"from a later writer\"}");
    lines.set(3, lines.get(3).replaceFirst("\\{", "{\"extra\":{\"nested\":[1,2]},"));
    Files.write(file, lines);
    try (RecordingReader r = RecordingReader.open(file, false)) {
      int records = 0;
      while (r.next().isPresent()) {
        records++;
      }
      assertEquals(1 + 3 + 1, records);
    }
  }

  @Test
  void theSplitsEachSourceSubtaskReadsReadBack() throws Exception {
    SplitOwnership splits =
        new SplitOwnership(
            List.of(
                List.of(new Split("orders_v1", 0), new Split("orders_v1", 2)),
                List.of(new Split("orders_v1", 1))));
    Path file = oneSourceSample("s.jsonl", Optional.of(splits), List.of());
    try (RecordingReader r = RecordingReader.open(file, false)) {
      VertexSample read = ((Recorded.Sample) r.next().orElseThrow()).sample().vertices().get("v");
      assertEquals(Optional.of(splits), read.splits());
    }
    // A recording made before sources were sized has none, and reads as before.
    try (RecordingReader r =
        RecordingReader.open(ChainRecording.write(dir.resolve("o.jsonl"), 1, 100, 200), false)) {
      r.next();
      Recorded.Sample old = (Recorded.Sample) r.next().orElseThrow();
      assertTrue(old.sample().vertices().values().stream().allMatch(v -> v.splits().isEmpty()));
    }
  }

  @Test
  void aSourceClientsFetchGaugesReadBackWithAnAbsentOneStillAbsent() throws Exception {
    List<SourceFetch> fetches =
        List.of(
            new SourceFetch(
                OptionalDouble.of(0.4),
                OptionalDouble.of(2473),
                OptionalDouble.of(3),
                OptionalDouble.of(524288)),
            new SourceFetch(
                OptionalDouble.of(1.9),
                OptionalDouble.of(61.5),
                OptionalDouble.empty(),
                OptionalDouble.empty()));
    Path file = oneSourceSample("f.jsonl", Optional.empty(), fetches);
    assertTrue(
        Files.readString(file).contains("\"fetch\":{\"fetch-rate\":[0.4,1.9],"),
        "under the client's own names");
    try (RecordingReader r = RecordingReader.open(file, false)) {
      VertexSample read = ((Recorded.Sample) r.next().orElseThrow()).sample().vertices().get("v");
      assertEquals(fetches, read.fetches());
    }
    // A recording made before they were kept has none, and reads as before.
    try (RecordingReader r =
        RecordingReader.open(ChainRecording.write(dir.resolve("o.jsonl"), 1, 100, 200), false)) {
      r.next();
      Recorded.Sample old = (Recorded.Sample) r.next().orElseThrow();
      assertTrue(old.sample().vertices().values().stream().allMatch(v -> v.fetches().isEmpty()));
    }
    // A recording made before fetch-size-avg was kept has the other three, and reads it absent.
    Path three = dir.resolve("three.jsonl");
    Files.writeString(
        three, Files.readString(file).replaceAll(",\"fetch-size-avg\":\\[[^\\]]*\\]", ""));
    assertFalse(Files.readString(three).contains("fetch-size-avg"), "the gauge taken out");
    try (RecordingReader r = RecordingReader.open(three, false)) {
      VertexSample read = ((Recorded.Sample) r.next().orElseThrow()).sample().vertices().get("v");
      assertEquals(OptionalDouble.of(2473), read.fetches().get(0).recordsPerFetch());
      assertTrue(
          read.fetches().stream().allMatch(f -> f.bytesPerFetch().isEmpty()), "absent, not 0");
    }
    // One value short: one clear line naming the gauge, never a reading shifted to another subtask.
    Path bad = dir.resolve("bad.jsonl");
    Files.writeString(bad, Files.readString(file).replace("[0.4,1.9]", "[0.4]"));
    try (RecordingReader r = RecordingReader.open(bad, false)) {
      RecordingFormatException e = assertThrows(RecordingFormatException.class, r::next);
      assertTrue(
          e.getMessage().endsWith(":2: vertex v: fetch.fetch-rate has 1 values for parallelism 2"),
          e.getMessage());
    }
  }

  @Test
  void howOldEachSourceSubtasksRecordsAreReadsBackWithAnAbsentOneStillAbsent() throws Exception {
    List<OptionalDouble> lag = List.of(OptionalDouble.of(48213), OptionalDouble.empty());
    Path file = oneSourceSample("l.jsonl", Optional.empty(), List.of(), lag);
    assertTrue(Files.readString(file).contains("\"emitLagMs\":[48213.0,null]"));
    try (RecordingReader r = RecordingReader.open(file, false)) {
      VertexSample read = ((Recorded.Sample) r.next().orElseThrow()).sample().vertices().get("v");
      assertEquals(lag, read.emitLagMs());
    }
    // A recording made before it was kept has none, and reads as before.
    try (RecordingReader r =
        RecordingReader.open(ChainRecording.write(dir.resolve("o.jsonl"), 1, 100, 200), false)) {
      r.next();
      Recorded.Sample old = (Recorded.Sample) r.next().orElseThrow();
      assertTrue(old.sample().vertices().values().stream().allMatch(v -> v.emitLagMs().isEmpty()));
    }
    // A reading short or negative: one clear line, never a value moved to another subtask.
    for (String[] c :
        new String[][] {
          {"[48213.0]", "vertex v: emitLagMs has 1 values for parallelism 2"},
          {"[48213.0,-5]", "vertex v: emitLagMs[1] is -5, expected a number >= 0 or null"}
        }) {
      Path bad = dir.resolve("bad.jsonl");
      Files.writeString(bad, Files.readString(file).replace("[48213.0,null]", c[0]));
      try (RecordingReader r = RecordingReader.open(bad, false)) {
        RecordingFormatException e = assertThrows(RecordingFormatException.class, r::next);
        assertTrue(e.getMessage().endsWith(":2: " + c[1]), e.getMessage());
      }
    }
  }

  private Path oneSourceSample(
      String name, Optional<SplitOwnership> splits, List<SourceFetch> fetches) throws Exception {
    return oneSourceSample(name, splits, fetches, List.of());
  }

  /**
   * A header and one sample of a source "v" at parallelism 2, with these splits, fetches and emit
   * lags.
   */
  private Path oneSourceSample(
      String name,
      Optional<SplitOwnership> splits,
      List<SourceFetch> fetches,
      List<OptionalDouble> emitLag)
      throws Exception {
    SubtaskSample a = SubtaskSample.of(0, 10, 10, 5, 5, 0);
    SubtaskSample b = SubtaskSample.of(1, 10, 10, 5, 5, 0);
    VertexSample v =
        new VertexSample(
            "v", "RUNNING", 2, List.of(a, b), OptionalDouble.of(3), splits, fetches, emitLag);
    Path file = dir.resolve(name);
    try (RecordingWriter w = RecordingWriter.create(file)) {
      w.write(ChainRecording.header());
      w.write(
          new Recorded.Sample(
              new JobSample(
                  Instant.ofEpochMilli(1000),
                  "RUNNING",
                  Instant.EPOCH,
                  OptionalLong.of(0),
                  Map.of("v", v))));
    }
    return file;
  }
}
