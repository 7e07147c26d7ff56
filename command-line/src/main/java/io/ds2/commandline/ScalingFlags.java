package io.ds2.commandline;

import io.ds2.core.options.Ds2Options;
import io.ds2.core.options.ForecastSettings;
import io.ds2.core.options.OptionSpec;
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
  public interface Taker {
    /** Defaults of this command that differ from the documented ones (the demo's windows). */
    default Map<String, String> defaults() {
      return Map.of();
    }
  }

  /** One flag per option; the help shows the default the command really uses. */
  public static void addTo(CommandSpec command, Map<String, String> defaults) {
    for (OptionSpec s : Ds2Options.SPECS) {
      command.addOption(
          CommandLine.Model.OptionSpec.builder("--" + s.name())
              .paramLabel(label(s))
              .type(String.class)
              .description(
                  s.meaning()
                      + " Default: "
                      + defaults.getOrDefault(s.name(), s.defaultValue())
                      + ".")
              .build());
    }
  }

  /** What kind of value an option takes, from its documented default. */
  static String label(OptionSpec s) {
    String d = s.defaultValue();
    if (s.name().equals(Ds2Options.FORECAST)) {
      return java.util.Arrays.stream(ForecastSettings.Mode.values())
          .map(m -> m.name().toLowerCase(java.util.Locale.ROOT))
          .collect(java.util.stream.Collectors.joining("|"));
    }
    if (d.equals("true") || d.equals("false")) {
      return "true|false";
    }
    if (d.equals("none")) {
      return s.name().equals(Ds2Options.CATCH_UP) ? "DURATION" : "N";
    }
    if (d.matches("\\d+")) {
      return "N";
    }
    if (d.matches("\\d*\\.\\d+")) {
      return "NUMBER";
    }
    return "DURATION";
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
