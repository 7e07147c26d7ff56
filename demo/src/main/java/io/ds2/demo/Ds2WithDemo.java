package io.ds2.demo;

import io.ds2.cli.Ds2Cli;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The {@code ds2} command line with {@code ds2 demo}, which runs an in-process Flink cluster. The
 * operator image runs {@link Ds2Cli} itself, without the demo and without Flink.
 */
public final class Ds2WithDemo {
  private Ds2WithDemo() {}

  public static void main(String[] args) {
    System.exit(
        run(
            new PrintWriter(System.out, true, StandardCharsets.UTF_8),
            new PrintWriter(System.err, true, StandardCharsets.UTF_8),
            args));
  }

  /** Runs a command line, the demo included; returns its exit code. */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    return Ds2Cli.run(out, err, List.of(new DemoCommand()), args);
  }
}
