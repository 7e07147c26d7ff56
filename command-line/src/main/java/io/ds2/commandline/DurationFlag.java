package io.ds2.commandline;

import io.ds2.core.options.Durations;
import io.ds2.core.options.InvalidOptionException;
import java.time.Duration;

/** A command's duration flag (not a scaling option), read as the options' durations are. */
public final class DurationFlag {
  private DurationFlag() {}

  /**
   * @throws UsageException naming the flag and the value if {@code text} is not a duration
   */
  public static Duration parse(String flag, String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          "invalid value '"
              + InvalidOptionException.printable(text)
              + "' for "
              + flag
              + ": "
              + e.getMessage());
    }
  }
}
