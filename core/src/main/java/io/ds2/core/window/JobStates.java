package io.ds2.core.window;

import java.util.Set;

/** Flink job states as the REST API names them. */
public final class JobStates {
  /** States a job does not leave: waiting on it is over. */
  public static final Set<String> TERMINAL = Set.of("FAILED", "CANCELED", "FINISHED", "SUSPENDED");

  private JobStates() {}
}
