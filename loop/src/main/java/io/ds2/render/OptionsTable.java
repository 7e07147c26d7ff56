package io.ds2.render;

import io.ds2.core.options.Ds2Options;
import io.ds2.core.options.OptionSpec;

/** The options of {@link Ds2Options#SPECS} as a Markdown table. */
public final class OptionsTable {
  private OptionsTable() {}

  public static String markdown() {
    StringBuilder sb = new StringBuilder();
    sb.append("| option | default | meaning |\n|---|---|---|\n");
    for (OptionSpec s : Ds2Options.SPECS) {
      sb.append("| `--")
          .append(s.name())
          .append("` | `")
          .append(s.defaultValue())
          .append("` | ")
          .append(s.meaning())
          .append(" |\n");
    }
    return sb.toString();
  }
}
