package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.commandline.ExitCodes;
import io.ds2.recording.ChainRecording;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Damaged recordings (cut, bytes flipped, values replaced by junk, lines dropped, repeated or
 * swapped; plain and gzip) never produce a stack trace: {@code ds2 whatif} gives a valid result or
 * one clear line, with the documented exit codes.
 */
class WhatIfFuzzTest {
  private static final Path DIR = Paths.get(System.getProperty("java.io.tmpdir"));
  private static final byte[] PLAIN = recording("fuzz-base.jsonl");
  private static final byte[] GZIP = recording("fuzz-base.jsonl.gz");
  private static final String[] JUNK = {
    "-1",
    "1e309",
    "null",
    "\"x\"",
    "[]",
    "{}",
    "NaN",
    "99999999999999999999",
    "9223372036854775807",
    "0",
    "\"\"",
    "true",
    "{\"type\":\"header\"}",
    "[[[[[[[[",
    "\u0000",
    "\"\\ud800\""
  };

  private static byte[] recording(String name) {
    try {
      return Files.readAllBytes(ChainRecording.write(DIR.resolve(name), 40, 100, 200));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Property(tries = 300)
  void aDamagedRecordingIsAClearErrorOrAResult(
      @ForAll("damaged") Damaged damaged, @ForAll boolean skipBadLines) throws IOException {
    Path file = Files.createTempFile(DIR, "fuzz", damaged.gzip() ? ".jsonl.gz" : ".jsonl");
    try {
      Files.write(file, damaged.bytes());
      List<String> args =
          new ArrayList<>(
              List.of(
                  "whatif", "--recording", file.toString(), "--window", "5s", "--warm-up", "0s"));
      if (skipBadLines) {
        args.add("--skip-bad-lines");
      }
      CliRun run = CliRun.of(args.toArray(String[]::new));
      if (run.exitCode() == ExitCodes.OK) {
        assertTrue(run.out().contains("\nReplayed "), run.out());
        assertEquals("", run.err());
      } else {
        assertEquals(ExitCodes.RUNTIME, run.exitCode(), damaged + "\n" + run.err());
        assertEquals(1, run.errLines().length, damaged + "\n" + run.err());
        assertTrue(run.err().startsWith("ds2 whatif: " + file), run.err());
        assertFalse(run.err().contains("unexpected error"), damaged + "\n" + run.err());
        assertFalse(run.err().contains("Exception"), damaged + "\n" + run.err());
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** A recording after a few random mutations, with what was done (for the failure message). */
  record Damaged(boolean gzip, byte[] bytes, String how) {
    @Override
    public String toString() {
      return (gzip ? "gzip: " : "plain: ") + how;
    }
  }

  @Provide
  Arbitrary<Damaged> damaged() {
    return Arbitraries.longs()
        .map(
            seed -> {
              Random r = new Random(seed);
              boolean gzip = r.nextInt(4) == 0;
              byte[] b = gzip ? GZIP.clone() : PLAIN.clone();
              StringBuilder how = new StringBuilder("seed " + seed + ":");
              int mutations = 1 + r.nextInt(3);
              for (int m = 0; m < mutations; m++) {
                b = gzip ? mutateBytes(b, r, how) : mutateText(b, r, how);
              }
              return new Damaged(gzip, b, how.toString());
            });
  }

  private static byte[] mutateBytes(byte[] b, Random r, StringBuilder how) {
    if (b.length == 0) {
      return b;
    }
    int at = r.nextInt(b.length);
    if (r.nextBoolean()) {
      how.append(" cut at ").append(at);
      return Arrays.copyOf(b, at);
    }
    how.append(" flip byte ").append(at);
    b[at] = (byte) r.nextInt(256);
    return b;
  }

  private static byte[] mutateText(byte[] b, Random r, StringBuilder how) {
    List<String> lines =
        new ArrayList<>(Arrays.asList(new String(b, StandardCharsets.UTF_8).split("\n", -1)));
    int i = r.nextInt(lines.size());
    String line = lines.get(i);
    switch (r.nextInt(7)) {
      case 0 -> {
        how.append(" drop line ").append(i + 1);
        lines.remove(i);
      }
      case 1 -> {
        how.append(" repeat line ").append(i + 1);
        lines.add(r.nextInt(lines.size() + 1), line);
      }
      case 2 -> {
        int j = r.nextInt(lines.size());
        how.append(" swap lines ").append(i + 1).append(", ").append(j + 1);
        lines.set(i, lines.get(j));
        lines.set(j, line);
      }
      case 3 -> {
        int cut = line.isEmpty() ? 0 : r.nextInt(line.length());
        how.append(" cut line ").append(i + 1).append(" at ").append(cut);
        lines.set(i, line.substring(0, cut));
      }
      case 4 -> {
        String junk = JUNK[r.nextInt(JUNK.length)];
        how.append(" line ").append(i + 1).append(": a number -> ").append(junk);
        lines.set(i, line.replaceFirst("(?<=[:\\[,])-?[0-9][0-9.eE+-]*", junk));
      }
      case 5 -> {
        String junk = JUNK[r.nextInt(JUNK.length)];
        how.append(" line ").append(i + 1).append(": a string -> ").append(junk);
        lines.set(i, line.replaceFirst(":\"[^\"]*\"", ":" + junk));
      }
      default -> {
        int at = b.length == 0 ? 0 : r.nextInt(b.length);
        how.append(" flip byte ").append(at);
        if (b.length > 0) {
          b[at] = (byte) r.nextInt(256);
        }
        return b;
      }
    }
    return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
  }
}
