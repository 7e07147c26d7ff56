package io.ds2.model.options;

/** An option value that cannot be used; the message names the option, the value and the rule. */
public final class InvalidOptionException extends IllegalArgumentException {
  private final String option;
  private final String rule;

  public InvalidOptionException(String option, String value, String rule) {
    super("invalid value '" + value + "' for " + option + ": " + rule);
    this.option = option;
    this.rule = rule;
  }

  public String option() {
    return option;
  }

  /** The rule the value broke, e.g. {@code must be in (0, 1]}. */
  public String rule() {
    return rule;
  }
}
