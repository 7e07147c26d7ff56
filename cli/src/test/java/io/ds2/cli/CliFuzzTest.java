package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.commandline.ExitCodes;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.options.OptionSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Any value for any option, any config file: either accepted (then the unreachable Flink is the one
 * runtime error) or one usage line; never a stack trace, never "unexpected".
 */
class CliFuzzTest {
  @Provide
  Arbitrary<String> optionNames() {
    return Arbitraries.of(Ds2Options.SPECS.stream().map(OptionSpec::name).toList());
  }

  @Provide
  Arbitrary<String> values() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            "",
            " ",
            "0",
            "-1",
            "1e309",
            "NaN",
            "Infinity",
            "-0",
            "0.0000001",
            "99999999999999999999",
            "30",
            "30s",
            "30 s",
            "-5m",
            "1.5s",
            "9999999h",
            "true",
            "yes",
            "none",
            "null",
            "∞",
            "10s;rm -rf /",
            "%n%s",
            "\u0000",
            "1,5"),
        Arbitraries.strings().ofMaxLength(20),
        Arbitraries.integers().map(String::valueOf),
        Arbitraries.doubles().map(String::valueOf),
        Arbitraries.integers()
            .between(-100, 100_000)
            .flatMap(n -> Arbitraries.of("ms", "s", "m", "h", "d", "").map(u -> n + u)));
  }

  private static void assertOneCleanLine(CliRun r, String... args) {
    String context = String.join(" ", args) + " -> " + r.err();
    assertEquals(1, r.errLines().length, context);
    assertFalse(r.err().contains("Exception"), context);
    assertFalse(r.err().contains("\tat "), context);
    assertFalse(r.err().toLowerCase(java.util.Locale.ROOT).contains("unexpected"), context);
  }

  @Property(tries = 200)
  void anyOptionValueIsAcceptedOrOneUsageLine(
      @ForAll("optionNames") String name, @ForAll("values") String value) {
    String[] args = {
      "recommend", "--flink-url", "http://127.0.0.1:1", "--timeout", "500ms", "--" + name, value
    };
    CliRun r = CliRun.of(args);
    assertOneCleanLine(r, args);
    assertTrue(r.exitCode() == ExitCodes.USAGE || r.exitCode() == ExitCodes.RUNTIME, r.err());
    if (r.exitCode() == ExitCodes.RUNTIME) {
      assertTrue(r.err().contains("cannot reach Flink REST API"), r.err());
    } else {
      assertTrue(r.err().startsWith("ds2 recommend: "), r.err());
    }
  }

  @Property(tries = 100)
  void anyConfigFileIsReadOrOneUsageLine(
      @ForAll("optionNames") String name,
      @ForAll("values") String value,
      @ForAll("lines") String junk)
      throws IOException {
    Path config = Files.createTempFile("ds2-config", ".properties");
    try {
      Files.writeString(config, name + "=" + value + "\n" + junk + "\n");
      // A directory that cannot exist ends the command after the config is read, before any
      // Kubernetes call: a config that passes is then reported as that directory.
      String[] args = {
        "operator",
        "--namespace",
        "x",
        "--config",
        config.toString(),
        "--record-dir",
        "/nonexistent/ds2"
      };
      CliRun r = CliRun.of(args);
      assertOneCleanLine(r, args);
      assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
    } finally {
      Files.deleteIfExists(config);
    }
  }

  @Provide
  Arbitrary<String> lines() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(40),
        Arbitraries.of("", "# comment", "window", "=", "window=", "\\", "bogus=1", "warm-up:5s"));
  }
}
