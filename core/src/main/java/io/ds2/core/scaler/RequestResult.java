package io.ds2.core.scaler;

import java.util.Map;

/** How a rescale request was answered; whether it took effect is observed afterwards. */
public sealed interface RequestResult {
  /**
   * The request was taken; observe until the job runs at {@code wanted}.
   *
   * @param wanted the parallelism the job should end up at (every vertex, where the actuator asks
   *     for every vertex)
   */
  record Accepted(Map<String, Integer> wanted) implements RequestResult {}

  /** The request was refused; nothing changed. */
  record Refused(String message) implements RequestResult {}

  /**
   * No answer: the request may still take effect, so the loop backs off instead of repeating it.
   */
  record Unanswered(String message) implements RequestResult {}

  /** This actuator cannot rescale the job (e.g. not the adaptive scheduler). */
  record Unsupported(String message) implements RequestResult {}

  /**
   * Not asked now: what carries the request out is busy with an earlier change (the Flink operator
   * reconciling another spec change). Nothing changed; the next decision may ask again.
   */
  record Busy(String message) implements RequestResult {}

  /** Someone else changed what ds2 set before; ds2 does not change it back. */
  record ChangedByOthers(String message) implements RequestResult {}
}
