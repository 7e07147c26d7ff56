package io.ds2.cli;

import io.ds2.render.OptionsTable;
import picocli.CommandLine.Command;

/**
 * Prints every option with its default and meaning (the table in docs/options.md is checked against
 * it).
 */
@Command(
    name = "options",
    mixinStandardHelpOptions = true,
    description = "List every tunable with its default and meaning, as a Markdown table.")
final class OptionsCommand implements Runnable {
  @Override
  public void run() {
    System.out.print(OptionsTable.markdown());
  }
}
