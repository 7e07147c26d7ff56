package io.ds2.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.commandline.ExitCodes;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.options.OptionSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every help page as a new user reads it: command summaries are whole sentences, the defaults shown
 * are the ones the command uses, a required choice shows as one, placeholders say what kind of
 * value they take.
 */
class HelpPagesTest {
  private static final List<String> COMMANDS =
      List.of("recommend", "run", "record", "whatif", "operator", "options", "demo");

  private static String help(String... command) {
    List<String> args = new ArrayList<>(List.of(command));
    args.add("--help");
    CliRun run = CliRun.of(args.toArray(String[]::new));
    assertEquals(ExitCodes.OK, run.exitCode(), run.err());
    return run.out();
  }

  @Test
  void everyCommandIsSummedUpInAWholeSentence() {
    String top = help();
    String list = top.substring(top.indexOf("Commands:"), top.indexOf("Exit codes:"));
    for (String command : COMMANDS) {
      Matcher m = Pattern.compile("(?m)^  " + command + " +(.+(?:\\n {15}.+)*)").matcher(list);
      assertTrue(m.find(), command + " is listed: " + list);
      String summary = m.group(1).replaceAll("\\s+", " ").strip();
      assertTrue(summary.endsWith("."), command + " is cut mid-sentence: " + summary);
    }
  }

  @Test
  void theDefaultsShownAreTheOnesTheCommandUses() {
    Map<String, Map<String, String>> own = Map.of("demo", new DemoCommand().defaults());
    for (String command : List.of("recommend", "run", "whatif", "operator", "demo")) {
      String page = help(command).replaceAll("\\s+", " ");
      for (OptionSpec s : Ds2Options.SPECS) {
        String expected =
            own.getOrDefault(command, Map.of()).getOrDefault(s.name(), s.defaultValue());
        Matcher m =
            Pattern.compile(
                    "(?<!\\[)--"
                        + Pattern.quote(s.name())
                        + "=[A-Za-z|]+ .*?Default: (\\S+?)\\.( |$)")
                .matcher(page);
        assertTrue(m.find(), command + " shows --" + s.name());
        assertEquals(expected, m.group(1), command + " --" + s.name());
      }
    }
    assertTrue(new DemoCommand().defaults().containsKey(Ds2Options.WINDOW));
  }

  @Test
  void placeholdersSayWhatTheyTakeAndARequiredChoiceShowsAsOne() {
    for (String command : COMMANDS) {
      assertFalse(help(command).contains("=VALUE"), command);
    }
    String operator = help("operator").replaceAll("\\s+", " ");
    assertTrue(
        operator.contains("(--namespace=NS [--namespace=NS]... | --all-namespaces)"), operator);
    assertTrue(operator.contains("/healthz, /readyz, /metrics"), operator);
    assertTrue(help().contains("-V, --version"));
  }
}
