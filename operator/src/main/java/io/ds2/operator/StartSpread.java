package io.ds2.operator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.SplittableRandom;

/**
 * When a managed job's loop takes its first step. When the operator starts — after a restart of its
 * pod or a leader handover — it finds every job at once; started together, a thousand loops would
 * poll, decide and rescale in the same seconds, and the ones at the back of that queue would decide
 * late for a window or two. A job that existed before the operator started therefore starts at a
 * point of its first window chosen from its uid (the same point on every restart, spread evenly
 * over many jobs). A job created while the operator runs, or whose loop starts over later (its
 * annotations changed, it opted in again), starts at once.
 */
final class StartSpread {
  private StartSpread() {}

  /**
   * @param r the resource as first seen
   * @param operatorStarted when this operator started watching
   * @param now the time now
   * @param window the job's window
   * @return how long after now the job's first step comes
   */
  static Duration delay(
      GenericKubernetesResource r, Instant operatorStarted, Instant now, Duration window) {
    boolean found = now.isBefore(operatorStarted.plus(window));
    if (!found || !existedBefore(r, operatorStarted) || window.toMillis() < 1) {
      return Duration.ZERO;
    }
    String uid = r.getMetadata().getUid();
    long seed = uid == null ? 0 : uid.hashCode();
    return Duration.ofMillis(new SplittableRandom(seed).nextLong(window.toMillis()));
  }

  // The API server stamps creation in whole seconds: only a resource from an earlier second than
  // the operator's start surely existed before it. One without a stamp is taken as existing.
  private static boolean existedBefore(GenericKubernetesResource r, Instant operatorStarted) {
    String created = r.getMetadata().getCreationTimestamp();
    if (created == null) {
      return true;
    }
    try {
      return Instant.parse(created).isBefore(operatorStarted.truncatedTo(ChronoUnit.SECONDS));
    } catch (DateTimeParseException e) {
      return true;
    }
  }
}
