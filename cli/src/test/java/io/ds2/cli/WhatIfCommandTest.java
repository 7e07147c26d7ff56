package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.commandline.ExitCodes;
import io.ds2.recording.ChainRecording;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ds2 whatif} on recordings written by the production writer: the oracle at the measured and
 * scaled demand, the report, and one clear line (file:line) for every kind of bad input.
 */
class WhatIfCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;

  private CliRun whatif(Path recording, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "whatif",
                "--recording",
                recording.toString(),
                "--window",
                "10s",
                "--warm-up",
                "0s"));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void sizesForTheMeasuredAndTheScaledDemand() throws Exception {
    // 100 records/s into an operator doing 200 per busy second: 1 instance; at x3 (300/s): 2.
    Path file = ChainRecording.write(dir.resolve("c.jsonl.gz"), 65, 100, 200);
    CliRun measured = whatif(file, "-o", "json");
    assertEquals(ExitCodes.OK, measured.exitCode(), measured.err());
    JsonNode root = JSON.readTree(measured.out());
    assertTrue(root.get("windows").size() >= 4, measured.out());
    assertEquals(1, root.get("plan").get(1).get("recommended").asInt());
    assertEquals(200, root.get("plan").get(1).get("trueRatePerInstance").asDouble(), 1e-6);
    assertEquals(0, root.get("rescales").size());

    CliRun tripled = whatif(file, "-o", "json", "--rate-scale", "3");
    JsonNode t = JSON.readTree(tripled.out());
    assertEquals(2, t.get("plan").get(1).get("recommended").asInt(), tripled.out());
    assertEquals(300, t.get("plan").get(1).get("targetInputRate").asDouble(), 1e-6);
    // The policy's activation (2 windows) then asks every window again: one rescale, counted.
    assertEquals(1, t.get("rescales").size(), tripled.out());
    assertTrue(t.get("rescales").get(0).get("windows").asInt() >= 2, tripled.out());
    assertTrue(t.get("rescales").get(0).get("why").asText().contains("300.0 records/s"));

    CliRun given = whatif(file, "--source-rate", "Source: In=500");
    assertEquals(ExitCodes.OK, given.exitCode(), given.err());
    assertTrue(given.out().matches("(?s).*\nWork +1 +3 +3 .*"), given.out());
    assertTrue(given.out().contains("Rescales the policy would have made: 1"), given.out());
  }

  @Test
  void writesASelfContainedReport() throws Exception {
    Path file = ChainRecording.write(dir.resolve("c.jsonl"), 40, 100, 200);
    Path report = dir.resolve("report.html");
    CliRun run = whatif(file, "--report", report.toString(), "--rate-scale", "2");
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    String html = Files.readString(report);
    assertTrue(html.contains("uPlot"), "charting library inlined");
    assertFalse(html.contains("<script src"), "no external script");
    assertFalse(html.contains("http://") && html.contains("<link"), "no external stylesheet");
    assertTrue(html.contains("\"name\":\"Work\""), "data embedded");
    assertTrue(html.contains("Capacity plan") && html.contains("Decisions, one per window"));
  }

  @Test
  void aMalformedLineIsNamedByFileAndLine() throws Exception {
    Path file = ChainRecording.write(dir.resolve("bad.jsonl"), 30, 100, 200);
    List<String> lines = new ArrayList<>(Files.readAllLines(file));
    lines.set(4, lines.get(4).substring(0, 40));
    lines.set(9, lines.get(9).replace("\"numRecordsIn\":[", "\"numRecordsIn\":[\"x\","));
    Files.write(file, lines);
    CliRun run = whatif(file);
    assertEquals(ExitCodes.RUNTIME, run.exitCode());
    assertEquals(1, run.errLines().length, run.err());
    assertTrue(run.err().startsWith("ds2 whatif: " + file + ":5: not valid JSON"), run.err());

    CliRun skipping = whatif(file, "--skip-bad-lines");
    assertEquals(ExitCodes.OK, skipping.exitCode(), skipping.err());
    assertTrue(
        skipping.out().contains("Skipped 2 bad line(s); the first: " + file + ":5:"),
        skipping.out());
  }

  @Test
  void badRecordingsGetOneClearLine() throws Exception {
    Path good = ChainRecording.write(dir.resolve("good.jsonl"), 12, 100, 200);
    List<String> lines = Files.readAllLines(good);
    assertError(
        write("newer.jsonl", lines.get(0).replace("\"version\":1", "\"version\":2")),
        ":1: recording format version 2 is newer than this ds2 reads (up to 1); use a newer ds2");
    assertError(write("empty.jsonl", ""), ": empty file, expected a ds2 recording header");
    assertError(write("noheader.jsonl", lines.get(2)), ":1: the first line must be the header");
    assertError(dir.resolve("missing.jsonl"), ": no such file");
    List<String> backwards = new ArrayList<>(lines);
    backwards.add(lines.get(3));
    assertError(
        write("backwards.jsonl", String.join("\n", backwards)),
        ": sample time 2026-11-29T10:00:01Z is before");
    List<String> wrongCount = new ArrayList<>(lines);
    wrongCount.set(5, lines.get(5).replace("\"parallelism\":1", "\"parallelism\":2"));
    assertError(
        write("count.jsonl", String.join("\n", wrongCount)),
        ":6: vertex src: numRecordsIn has 1 values for parallelism 2");
    assertError(
        write(
            "graph.jsonl",
            lines.get(0) + "\n" + lines.get(1).replace("\"to\":\"op\"", "\"to\":\"nowhere\"")),
        ":2: topology is not a valid dataflow graph");
  }

  @Test
  void aCutGzipRecordingIsAnErrorOrItsCompleteLines() throws Exception {
    Path good = ChainRecording.write(dir.resolve("g.jsonl.gz"), 40, 100, 200);
    byte[] bytes = Files.readAllBytes(good);
    Path cut = dir.resolve("cut.jsonl.gz");
    try (OutputStream out = Files.newOutputStream(cut)) {
      out.write(bytes, 0, bytes.length * 2 / 3);
    }
    CliRun run = whatif(cut);
    assertEquals(ExitCodes.RUNTIME, run.exitCode());
    assertEquals(1, run.errLines().length, run.err());
    assertTrue(run.err().contains("compressed data ends early"), run.err());
    CliRun skipping = whatif(cut, "--skip-bad-lines");
    assertEquals(ExitCodes.OK, skipping.exitCode(), skipping.err());
    assertTrue(skipping.out().contains("Replayed "), skipping.out());
  }

  @Test
  void usageErrors() throws Exception {
    Path file = ChainRecording.write(dir.resolve("c.jsonl"), 12, 100, 200);
    assertUsage(
        whatif(file, "--rate-scale", "2", "--source-rate", "Source: In=5"), "exclude each other");
    assertUsage(whatif(file, "--rate-scale", "0"), "--rate-scale must be a number > 0");
    assertUsage(whatif(file, "--source-rate", "Work=5"), "'Work' is not a source vertex");
    assertUsage(CliRun.of("whatif"), "Missing required argument");
    assertUsage(whatif(file, "--ds2-rates", "x"), "Missing required argument(s): --ds2-topology");
    assertUsage(
        whatif(file, "--report", dir.resolve("no/such/dir/r.html").toString()),
        "--report: cannot write");
  }

  @Test
  void aReplayPollsAtTheRecordingsPace() throws Exception {
    // 5 minutes polled every 10 s (what `record` does at its default): at default settings the
    // replay takes its sample interval from the recording and forms a window every 30 s or so.
    Path tenSeconds = everyNth(ChainRecording.write(dir.resolve("c.jsonl"), 300, 100, 200), 10, 0);
    CliRun run = CliRun.of("whatif", "--recording", tenSeconds.toString(), "-o", "json");
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    assertTrue(
        run.err().contains("from the recording (flags override): --sample-interval 10s"),
        run.err());
    JsonNode root = JSON.readTree(run.out());
    assertTrue(root.get("totals").get("windows").asInt() >= 6, run.out());
    // A window as short as one recorded poll is still a window (it once was a crash).
    CliRun short10 = whatif(tenSeconds, "--activation", "1"); // --window 10s --warm-up 0s
    assertEquals(ExitCodes.OK, short10.exitCode(), short10.err());
    assertTrue(short10.out().contains("Replayed "), short10.out());
    assertFalse(short10.err().contains("unexpected"), short10.err());
  }

  @Test
  void settingsThatLeaveNoTimeForAWindowAreRefused() throws Exception {
    // Flink refreshed its metrics once a minute: waiting warm-up + 2 windows + 10 polls of 1 s
    // (0 + 20 + 10 s) is shorter than a 10 s window plus two readings.
    Path slow = everyNth(ChainRecording.write(dir.resolve("s.jsonl"), 600, 100, 200), 60, 60_000);
    assertUsage(
        whatif(slow, "--sample-interval", "1s"),
        "--sample-interval 1s: the recording holds a new reading every 1m");
    CliRun atItsPace = CliRun.of("whatif", "--recording", slow.toString());
    assertEquals(ExitCodes.OK, atItsPace.exitCode(), atItsPace.err());
  }

  /**
   * The recording with only every {@code n}th sample, its header saying so (and that Flink
   * refreshed every {@code refreshMs}, if not 0).
   */
  private Path everyNth(Path file, int n, long refreshMs) throws Exception {
    List<String> kept = new ArrayList<>();
    int samples = 0;
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      JsonNode node = JSON.readTree(line);
      String type = node.get("type").asText();
      if (type.equals("header")) {
        com.fasterxml.jackson.databind.node.ObjectNode c =
            (com.fasterxml.jackson.databind.node.ObjectNode) node.get("collector");
        c.put("intervalMs", 1000L * n);
        if (refreshMs > 0) {
          c.put("metricRefreshMs", refreshMs);
        }
        kept.add(JSON.writeValueAsString(node));
      } else if (!type.equals("sample") || samples++ % n == 0) {
        kept.add(line);
      }
    }
    Path out = dir.resolve("every" + n + "-" + file.getFileName());
    Files.write(out, kept, StandardCharsets.UTF_8);
    return out;
  }

  /**
   * A job whose graph lost a vertex mid-recording (a redeploy under the same job id, not recorded
   * as a new topology): the replay reports the poll that misses it, naming the vertex, as the live
   * loop would have, and goes on.
   */
  @Test
  void aVertexGoneFromTheRecordedPollsIsReportedNotACrash() throws Exception {
    Path file = ChainRecording.write(dir.resolve("g.jsonl.gz"), 65, 100, 200);
    List<String> lines = new ArrayList<>();
    int samples = 0;
    String dropped = null;
    for (String line : readLines(file)) {
      JsonNode node = JSON.readTree(line);
      if (node.get("type").asText().equals("sample") && ++samples > 30) {
        com.fasterxml.jackson.databind.node.ArrayNode vertices =
            (com.fasterxml.jackson.databind.node.ArrayNode) node.get("vertices");
        dropped = vertices.get(vertices.size() - 1).get("id").asText();
        vertices.remove(vertices.size() - 1);
        lines.add(JSON.writeValueAsString(node));
      } else {
        lines.add(line);
      }
    }
    Path changed = Files.write(dir.resolve("changed.jsonl"), lines, StandardCharsets.UTF_8);
    CliRun run = whatif(changed, "-o", "json");
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    assertTrue(dropped != null);
    assertTrue(
        run.out().contains("is no longer part of the recorded job at")
            && run.out().contains("the job graph changed"),
        run.out());
  }

  private static List<String> readLines(Path gz) throws Exception {
    try (var in =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(
                new java.util.zip.GZIPInputStream(Files.newInputStream(gz)),
                StandardCharsets.UTF_8))) {
      return in.lines().toList();
    }
  }

  private Path write(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
  }

  private void assertError(Path file, String expected) {
    CliRun run = whatif(file);
    assertEquals(ExitCodes.RUNTIME, run.exitCode(), run.err());
    assertEquals(1, run.errLines().length, run.err());
    assertTrue(run.err().startsWith("ds2 whatif: " + file), run.err());
    assertTrue(run.err().contains(expected), run.err());
  }

  private static void assertUsage(CliRun run, String expected) {
    assertEquals(ExitCodes.USAGE, run.exitCode(), run.err());
    assertEquals(1, run.errLines().length, run.err());
    assertTrue(run.err().contains(expected), run.err());
  }

  @Test
  void aReplayTakesTheOptionsTheRunWasMadeWithAndFlagsStillWin() throws Exception {
    // A run with 10 s windows, no warm-up, activation 1; replayed at ds2's defaults (30 s windows
    // after a 30 s warm-up) 65 s of it would hold one window.
    Path file =
        ChainRecording.write(
            dir.resolve("o.jsonl.gz"),
            65,
            100,
            200,
            Map.of("window", "10s", "warm-up", "0s", "activation", "1"));
    CliRun taken = CliRun.of("whatif", "--recording", file.toString(), "-o", "json");
    assertEquals(ExitCodes.OK, taken.exitCode(), taken.err());
    assertTrue(
        taken
            .err()
            .contains(
                "from the recording (flags override): --activation 1, --warm-up 0s,"
                    + " --window 10s"),
        taken.err());
    assertTrue(JSON.readTree(taken.out()).get("totals").get("windows").asInt() >= 5, taken.out());
    CliRun overridden =
        CliRun.of("whatif", "--recording", file.toString(), "-o", "json", "--window", "30s");
    assertEquals(ExitCodes.OK, overridden.exitCode(), overridden.err());
    assertFalse(overridden.err().contains("--window 10s"), overridden.err());
    assertTrue(JSON.readTree(overridden.out()).get("totals").get("windows").asInt() <= 2);
  }

  @Test
  void theReportLabelsTheDemandItChartsAndItsTimesAsUtc() throws Exception {
    Path file = ChainRecording.write(dir.resolve("r.jsonl.gz"), 65, 100, 200);
    Path report = dir.resolve("r.html");
    CliRun run = whatif(file, "-o", "json", "--rate-scale", "2", "--report", report.toString());
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    String html = Files.readString(report);
    assertTrue(html.contains("demand: <b>measured demand x 2.0</b>"), "the doubled demand");
    assertTrue(html.contains("\"demand\":\"measured demand x 2.0\""), "the chart's legend");
    assertTrue(html.contains("demand (dashed) vs throughput (solid)"));
    assertTrue(
        html.contains("'Etc/UTC'") && html.contains("Window end (UTC)"), "one zone, labelled");
  }
}
