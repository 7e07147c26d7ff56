package io.ds2.core.options;

/** An option value that cannot be used; the message names the option, the value and the rule. */
public final class InvalidOptionException extends IllegalArgumentException {
  private final String option;
  private final String rule;

  public InvalidOptionException(String option, String value, String rule) {
    super("invalid value '" + printable(value) + "' for " + option + ": " + rule);
    this.option = option;
    this.rule = rule;
  }

  /**
   * The value as it can stand in a one-line message: line breaks and other control characters
   * escaped ({@code \\n}, {@code \\u0000}), so that a bad value cannot break the line it is
   * reported on (a log line, an event).
   */
  public static String printable(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          int type = Character.getType(c);
          boolean breaks =
              Character.isISOControl(c)
                  || type == Character.LINE_SEPARATOR
                  || type == Character.PARAGRAPH_SEPARATOR;
          out.append(breaks ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
      }
    }
    return out.toString();
  }

  public String option() {
    return option;
  }

  /** The rule the value broke, e.g. {@code must be in (0, 1]}. */
  public String rule() {
    return rule;
  }
}
