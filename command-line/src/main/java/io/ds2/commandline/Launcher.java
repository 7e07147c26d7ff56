package io.ds2.commandline;

import io.ds2.core.options.InvalidOptionException;
import io.ds2.core.scaler.SourceFailure;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;

/**
 * Runs a ds2 command line the way every ds2 main does (the CLI and the operator image's): scaling
 * flags added to the commands that take them, a usage error or an expected failure as one line on
 * stderr with its exit code ({@link ExitCodes}), anything else as "unexpected error".
 */
public final class Launcher {
  private Launcher() {}

  /**
   * @param expected failures whose message is the line to print (besides usage errors, the core's
   *     {@link SourceFailure} and I/O errors), e.g. a recording's format error
   * @return the exit code
   */
  public static int execute(
      CommandLine cli,
      PrintWriter out,
      PrintWriter err,
      List<Class<? extends Exception>> expected,
      String... args) {
    cli.setOut(out);
    cli.setErr(err);
    cli.getSubcommands().values().stream()
        .filter(c -> c.getCommand() instanceof ScalingFlags.Taker)
        .forEach(
            c ->
                ScalingFlags.addTo(
                    c.getCommandSpec(), ((ScalingFlags.Taker) c.getCommand()).defaults()));
    cli.setParameterExceptionHandler(usageHandler());
    cli.setExecutionExceptionHandler(failureHandler(expected));
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

  private static IExecutionExceptionHandler failureHandler(
      List<Class<? extends Exception>> expected) {
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
          || ex instanceof java.io.UncheckedIOException
          || expected.stream().anyMatch(c -> c.isInstance(ex))) {
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
