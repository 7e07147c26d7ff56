package io.ds2.cli;

import io.ds2.commandline.Launcher;
import io.ds2.operator.OperatorCommand;
import io.ds2.recording.RecordingFormatException;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ds2} command line: a DS2-style autoscaler for Apache Flink. */
@Command(
    name = "ds2",
    mixinStandardHelpOptions = true,
    version = "ds2 0.1.0",
    description = "Right-sizes Flink streaming jobs from true processing rates (DS2, OSDI'18).",
    subcommands = {
      RecommendCommand.class,
      RunCommand.class,
      RecordCommand.class,
      WhatIfCommand.class,
      OperatorCommand.class,
      OptionsCommand.class
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:success", "1:runtime failure (one line on stderr)", "2:usage error"})
public final class Ds2Cli implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs a command line and returns its exit code; errors are one line on stderr. */
  public static int run(String... args) {
    return run(
        new PrintWriter(System.out, true, java.nio.charset.StandardCharsets.UTF_8),
        new PrintWriter(System.err, true, java.nio.charset.StandardCharsets.UTF_8),
        args);
  }

  /** As {@link #run(String...)}, writing to the given streams (for tests and embedding). */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    return run(out, err, java.util.List.of(), args);
  }

  /**
   * As {@link #run(PrintWriter, PrintWriter, String...)}, with more commands (the demo, which
   * brings an in-process Flink cluster and so lives outside the operator's module).
   */
  public static int run(
      PrintWriter out, PrintWriter err, java.util.List<Object> moreCommands, String... args) {
    CommandLine cli = new CommandLine(new Ds2Cli());
    moreCommands.forEach(cli::addSubcommand);
    return Launcher.execute(cli, out, err, List.of(RecordingFormatException.class), args);
  }
}
