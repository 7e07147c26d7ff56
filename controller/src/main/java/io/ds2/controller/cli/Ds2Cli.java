package io.ds2.controller.cli;

import io.ds2.controller.recording.RecordingFormatException;
import io.ds2.model.options.InvalidOptionException;
import io.ds2.model.scaler.SourceFailure;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;

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
    cli.setOut(out);
    cli.setErr(err);
    cli.getSubcommands().values().stream()
        .filter(c -> c.getCommand() instanceof ScalingFlags.Taker)
        .forEach(
            c ->
                ScalingFlags.addTo(
                    c.getCommandSpec(), ((ScalingFlags.Taker) c.getCommand()).defaults()));
    cli.setParameterExceptionHandler(usageHandler());
    cli.setExecutionExceptionHandler(failureHandler());
    return cli.execute(args);
  }

  private static IParameterExceptionHandler usageHandler() {
    return (ex, args) -> {
      CommandLine cmd = ex.getCommandLine();
      PrintWriter err = cmd.getErr();
      err.println(
          cmd.getCommandSpec().qualifiedName()
              + ": "
              + ex.getMessage().replaceFirst("^Error: ", "")
              + " (see "
              + cmd.getCommandSpec().qualifiedName()
              + " --help)");
      err.flush();
      return ExitCodes.USAGE;
    };
  }

  private static IExecutionExceptionHandler failureHandler() {
    return (ex, cmd, parseResult) -> {
      PrintWriter err = cmd.getErr();
      String name = cmd.getCommandSpec().qualifiedName();
      boolean verbose = parseResult.hasMatchedOption("--verbose");
      int code;
      String message;
      if (ex instanceof UsageException || ex instanceof InvalidOptionException) {
        code = ExitCodes.USAGE;
        message = ex.getMessage();
      } else if (ex instanceof SourceFailure
          || ex instanceof RecordingFormatException
          || ex instanceof java.io.UncheckedIOException) {
        code = ExitCodes.RUNTIME;
        message = ex.getMessage();
      } else {
        code = ExitCodes.RUNTIME;
        message =
            "unexpected error: "
                + ex
                + (verbose ? "" : " (run with --verbose for the stack trace)");
      }
      err.println(name + ": " + message);
      if (verbose) {
        ex.printStackTrace(err);
      }
      err.flush();
      return code;
    };
  }
}
