package io.ds2.commandline;

/** The user asked for something that cannot work as typed: exit code 2. */
public final class UsageException extends RuntimeException {
  public UsageException(String message) {
    super(message);
  }
}
