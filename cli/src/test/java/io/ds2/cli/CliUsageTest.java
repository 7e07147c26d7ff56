package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.commandline.ExitCodes;
import org.junit.jupiter.api.Test;

/** Bad flags exit 2 with one line naming the flag; nothing touches the network. */
class CliUsageTest {
  private static void usage(String expected, String... args) {
    CliRun r = CliRun.of(args);
    assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
    assertEquals(1, r.errLines().length, r.err());
    assertEquals(expected, r.errLines()[0]);
    assertEquals("", r.out());
  }

  @Test
  void missingRequiredFlag() {
    usage(
        "ds2 recommend: Missing required option: '--flink-url=URL' (see ds2 recommend --help)",
        "recommend");
  }

  @Test
  void badOptionValuesNameTheOption() {
    usage(
        "ds2 recommend: invalid value '30' for window: expected a whole number with a unit: ms, s,"
            + " m or h (e.g. 30s)",
        "recommend",
        "--flink-url",
        "http://127.0.0.1:1",
        "--window",
        "30");
    usage(
        "ds2 recommend: invalid value '0' for target-utilization: must be in (0, 1]",
        "recommend",
        "--flink-url",
        "http://127.0.0.1:1",
        "--target-utilization",
        "0");
    usage(
        "ds2 recommend: invalid value 'soon' for --timeout: expected a whole number with a unit:"
            + " ms, s, m or h (e.g. 30s)",
        "recommend",
        "--flink-url",
        "http://127.0.0.1:1",
        "--timeout",
        "soon");
  }

  @Test
  void badUrlAndUnknownFlagAndOutput() {
    usage(
        "ds2 recommend: --flink-url: 'localhost:8081' is not an http(s) URL like"
            + " http://localhost:8081",
        "recommend",
        "--flink-url",
        "localhost:8081");
    CliRun r = CliRun.of("recommend", "--flink-url", "http://x", "--bogus");
    assertEquals(ExitCodes.USAGE, r.exitCode());
    assertTrue(r.err().startsWith("ds2 recommend: Unknown option: '--bogus'"), r.err());
    r = CliRun.of("recommend", "--flink-url", "http://x", "-o", "yaml");
    assertEquals(ExitCodes.USAGE, r.exitCode());
    assertEquals(1, r.errLines().length, r.err());
  }

  @Test
  void noCommandIsUsage() {
    assertEquals(ExitCodes.USAGE, CliRun.of().exitCode());
  }

  @Test
  void helpListsEveryDocumentedOption() {
    CliRun r = CliRun.of("recommend", "--help");
    assertEquals(ExitCodes.OK, r.exitCode());
    for (var spec : io.ds2.core.options.Ds2Options.SPECS) {
      assertTrue(r.out().contains("--" + spec.name()), spec.name());
    }
  }
}
