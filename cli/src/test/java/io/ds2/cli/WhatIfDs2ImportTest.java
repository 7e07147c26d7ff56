package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.commandline.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DS2 reference's offline format (topology CSV, per-instance rates log, source rates) replayed
 * by {@code ds2 whatif}: the result is DS2's closed form, and bad files get one line naming the
 * file and line.
 */
class WhatIfDs2ImportTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long T0 = 1_700_000_000_000_000_000L;
  @TempDir Path dir;

  /**
   * Source (2 instances, 700 records/s each) -> FlatMap (2 instances, true rate 800/s, selectivity
   * 2) -> Count (1 instance, true rate 5000/s); 12 windows of 10 s.
   */
  private List<String> rates(int windows) {
    List<String> lines = new ArrayList<>(List.of("# operator,instance,total,ts,tp,to,op,oo"));
    for (int k = 0; k < windows; k++) {
      long ts = T0 + k * 10_000_000_000L;
      for (int i = 0; i < 2; i++) {
        lines.add("1," + i + ",2," + ts + ",0,0,0,700");
      }
      for (int i = 0; i < 2; i++) {
        lines.add("2," + i + ",2," + (ts + 3_000_000L) + ",800,1600,700,1400");
      }
      lines.add("3,0,1," + ts + ",5000,0,2800,0");
    }
    return lines;
  }

  private CliRun whatif(List<String> rates, String sourceRates, String... extra) throws Exception {
    Path topology =
        Files.write(
            dir.resolve("topology.csv"),
            List.of(
                "# src -> flatmap -> count", "1,Source,2,2,FlatMap,2", "2,FlatMap,2,3,Count,1"));
    Path log = Files.write(dir.resolve("rates.log"), rates);
    List<String> args =
        new ArrayList<>(
            List.of(
                "whatif",
                "--ds2-topology",
                topology.toString(),
                "--ds2-rates",
                log.toString(),
                "--window",
                "30s",
                "--warm-up",
                "0s"));
    if (sourceRates != null) {
      args.addAll(
          List.of(
              "--ds2-source-rates",
              Files.writeString(dir.resolve("sources.csv"), sourceRates).toString()));
    }
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void givesDs2sClosedForm() throws Exception {
    // Target 1500/s per source instance = 3000/s: FlatMap 3000/800 = 3.75 -> 4, Count 6000/5000 ->
    // 2.
    CliRun run = whatif(rates(12), "1,1500\n", "-o", "json");
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    assertEquals(Map.of("FlatMap", 4, "Count", 2), plan(JSON.readTree(run.out())));
    // Without source rates, the observed 1400/s: FlatMap 1400/800 -> 2, Count 2800/5000 -> 1.
    CliRun observed = whatif(rates(12), null, "-o", "json");
    assertEquals(Map.of("FlatMap", 2, "Count", 1), plan(JSON.readTree(observed.out())));
    // Source rates scale with --rate-scale like measured demand: 6000/s -> 8 and 3.
    CliRun doubled = whatif(rates(12), "1,1500\n", "-o", "json", "--rate-scale", "2");
    assertEquals(Map.of("FlatMap", 8, "Count", 3), plan(JSON.readTree(doubled.out())));
  }

  @Test
  void aLogOfOneEpochPerInstanceIsOneWindowWithDs2sAnswer() throws Exception {
    CliRun run = whatif(rates(1), "1,1500\n", "-o", "json");
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    JsonNode root = JSON.readTree(run.out());
    assertEquals(1, root.get("totals").get("windows").asInt(), run.out());
    assertEquals(Map.of("FlatMap", 4, "Count", 2), plan(root));
  }

  /**
   * As a new user runs it: no flags but the files. The log has no restarts, so no warm-up applies
   * (before, the live 30 s warm-up left "No clean window in the recording").
   */
  @Test
  void aOneEpochLogAtDefaultsGivesDs2sAnswer() throws Exception {
    Path topology =
        Files.write(
            dir.resolve("topology.csv"),
            List.of("1,Source,2,2,FlatMap,2", "2,FlatMap,2,3,Count,1"));
    CliRun run =
        CliRun.of(
            "whatif",
            "--ds2-topology",
            topology.toString(),
            "--ds2-rates",
            Files.write(dir.resolve("rates.log"), rates(1)).toString(),
            "--ds2-source-rates",
            Files.writeString(dir.resolve("sources.csv"), "1,1500\n").toString(),
            "-o",
            "json");
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    assertEquals(Map.of("FlatMap", 4, "Count", 2), plan(JSON.readTree(run.out())));
  }

  @Test
  void instancesOfOneWindowFarApartAreRefusedNamingTheLine() throws Exception {
    List<String> lines = rates(3);
    // Count's line of the second window (line 11) starts 45 s after the window's others.
    lines.set(10, "3,0,1," + (T0 + 55_000_000_000L) + ",5000,0,2800,0");
    assertError(
        whatif(lines, null),
        "rates.log:11: operator 3 instance 0 starts its window 45.0 s after another instance of"
            + " the same window, more than the window (10.0 s)");
  }

  private static Map<String, Integer> plan(JsonNode root) {
    Map<String, Integer> p = new HashMap<>();
    for (JsonNode v : root.get("plan")) {
      if (!v.get("source").asBoolean()) {
        p.put(v.get("name").asText(), v.get("recommended").asInt());
      }
    }
    return p;
  }

  @Test
  void badLinesAreNamed() throws Exception {
    List<String> lines = rates(6);
    lines.set(3, "2,0,2,1700000000000000000,800,1600,700");
    assertError(whatif(lines, null), "rates.log:4: 7 comma-separated fields, expected 8");
    lines = rates(6);
    lines.set(5, "9,0,1,1700000000000000000,1,1,1,1");
    assertError(whatif(lines, null), "rates.log:6: operator 9 is not in the topology");
    lines = rates(6);
    lines.set(5, "3,0,4,1700000000000000000,1,1,1,1");
    assertError(
        whatif(lines, null), "rates.log:6: operator 3 has 4 instances here but 1 in the topology");
    lines = rates(6);
    lines.set(2, "1,7,2,1700000000000000000,0,0,0,700");
    assertError(
        whatif(lines, null), "rates.log:8: operator 1 has more than its 2 instances (instance 1)");
    lines = rates(6);
    lines.set(1, "1,0,2,1700000000000000000,0,0,0,-5");
    assertError(
        whatif(lines, null), "rates.log:2: observed output rate is '-5', expected a number >= 0");
    assertError(whatif(rates(6), "3,10\n"), "sources.csv:1: 3 is not a source operator");

    lines = rates(12);
    lines.add(3, "garbage");
    CliRun skipping = whatif(lines, null, "--skip-bad-lines");
    assertEquals(ExitCodes.OK, skipping.exitCode(), skipping.err());
    assertTrue(skipping.out().contains("Skipped 1 bad line(s)"), skipping.out());
    // A garbage line in place of a data line leaves that instance a window behind the others:
    // no later window holds one window's lines, and none is formed from mismatched ones.
    lines = rates(12);
    lines.set(3, "garbage");
    assertError(whatif(lines, null, "--skip-bad-lines"), "rates.log: no window could be formed (");
  }

  private static void assertError(CliRun run, String expected) {
    assertEquals(ExitCodes.RUNTIME, run.exitCode(), run.out() + run.err());
    assertEquals(1, run.errLines().length, run.err());
    assertTrue(run.err().contains(expected), run.err());
  }
}
