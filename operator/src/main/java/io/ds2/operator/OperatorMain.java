package io.ds2.operator;

import io.ds2.commandline.Launcher;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The operator image's entry point: {@code ds2 operator ...}, the same command line as the CLI's
 * {@code operator} (the chart's arguments work with either), without the CLI's other commands — so
 * the image carries no what-if, report or recording reader.
 */
@Command(
    name = "ds2",
    mixinStandardHelpOptions = true,
    version = "ds2 0.1.0",
    description = "The ds2 operator: right-sizes Flink jobs on Kubernetes.",
    subcommands = {OperatorCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:success", "1:runtime failure (one line on stderr)", "2:usage error"})
public final class OperatorMain implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
  }

  public static void main(String[] args) {
    System.exit(
        Launcher.execute(
            new CommandLine(new OperatorMain()),
            new PrintWriter(System.out, true, StandardCharsets.UTF_8),
            new PrintWriter(System.err, true, StandardCharsets.UTF_8),
            List.of(),
            args));
  }
}
