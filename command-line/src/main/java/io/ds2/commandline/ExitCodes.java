package io.ds2.commandline;

/** The documented exit codes of every ds2 command. */
public final class ExitCodes {
  /** Success. */
  public static final int OK = 0;

  /** Runtime failure: Flink unreachable, job missing, metrics unusable, ... */
  public static final int RUNTIME = 1;

  /** Usage: bad flag, bad value, unknown vertex. */
  public static final int USAGE = 2;

  private ExitCodes() {}
}
