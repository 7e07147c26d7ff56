package io.ds2.controller.cli;

import io.ds2.model.options.Ds2Options;
import io.ds2.model.options.OptionSpec;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Adds one flag per documented option ({@link Ds2Options#SPECS}) to a command, so the CLI can never
 * drift from the options class; values are parsed and validated by {@link Ds2Options}.
 */
public final class ScalingFlags {
  private ScalingFlags() {}

  /** Marks commands that take the scaling options. */
  public interface Taker {}

  public static void addTo(CommandSpec command) {
    for (OptionSpec s : Ds2Options.SPECS) {
      command.addOption(
          CommandLine.Model.OptionSpec.builder("--" + s.name())
              .paramLabel("VALUE")
              .type(String.class)
              .description(s.meaning() + " Default: " + s.defaultValue() + ".")
              .build());
    }
  }

  /**
   * @param overrides defaults of this command that differ from the documented ones (the demo's
   *     shorter windows); the user's flags still win
   */
  public static Ds2Options read(CommandSpec command, Map<String, String> overrides) {
    return validate(command, overrides);
  }

  /** Checks the flags before anything else is done: a bad one is a usage error. */
  public static Ds2Options validate(CommandSpec command, Map<String, String> overrides) {
    Map<String, String> given = new HashMap<>(overrides);
    for (OptionSpec s : Ds2Options.SPECS) {
      String value = command.findOption("--" + s.name()).getValue();
      if (value != null) {
        given.put(s.name(), value);
      }
    }
    return Ds2Options.fromMap(given);
  }
}
