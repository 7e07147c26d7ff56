package io.ds2.core.scaler;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One rescale from request to outcome, stepped like the scaler: it answers each input with the next
 * action ({@link ScalerAction.Observe} or {@link ScalerAction.Abandon}) or, once over, the outcome.
 * Time and downtime are measured here once, for every actuator: downtime from the first poll that
 * saw the job or a vertex not RUNNING (or, if none did, the last poll that saw it up) to the poll
 * that saw it running at the new parallelism.
 */
public final class RescaleRun {
  /** The answer to one input: the next action, or the outcome when the rescale is over. */
  public record Next(Optional<ScalerAction> action, Optional<RescaleOutcome> outcome) {
    static Next act(ScalerAction a) {
      return new Next(Optional.of(a), Optional.empty());
    }

    static Next over(RescaleOutcome o) {
      return new Next(Optional.empty(), Optional.of(o));
    }
  }

  private final Map<String, Integer> requested;
  private final Instant start;
  private final Duration timeout;
  private final Duration poll;
  private Map<String, Integer> wanted;
  private Instant down;
  private Instant lastUp;

  /**
   * @param start when the request is made
   * @param poll how often the rescale is observed ({@link Actuator#pollInterval()})
   */
  public RescaleRun(
      Map<String, Integer> requested, Instant start, Duration timeout, Duration poll) {
    this.requested = requested;
    this.start = start;
    this.timeout = timeout;
    this.poll = poll;
    this.wanted = requested;
    this.lastUp = start;
  }

  /** What was asked for (by the policy). */
  public Map<String, Integer> requested() {
    return requested;
  }

  /** The request to make first. */
  public ScalerAction.Request request() {
    return new ScalerAction.Request(start, requested);
  }

  /** The first action for a request an earlier instance already made. */
  public ScalerAction.Observe resume() {
    return new ScalerAction.Observe(start, wanted);
  }

  /** Takes the result of the last action, carried out at {@code now}. */
  public Next take(ScalerInput input, Instant now) {
    if (input instanceof ScalerInput.Answered a) {
      return answered(a.result(), now);
    }
    if (input instanceof ScalerInput.Observed o) {
      return observed(o.status(), now);
    }
    if (input instanceof ScalerInput.Abandoned a) {
      return Next.over(
          new RescaleOutcome.NotApplied(
              wanted, Map.of(), RescaleOutcome.Cause.TIMED_OUT, a.message()));
    }
    throw new IllegalArgumentException("a rescale in flight takes no " + input);
  }

  private Next answered(RequestResult result, Instant now) {
    if (result instanceof RequestResult.Accepted a) {
      wanted = a.wanted();
      return Next.act(new ScalerAction.Observe(now, wanted));
    }
    if (result instanceof RequestResult.Unsupported u) {
      return Next.over(new RescaleOutcome.Unsupported(u.message()));
    }
    if (result instanceof RequestResult.ChangedByOthers c) {
      return Next.over(
          new RescaleOutcome.NotApplied(
              requested, Map.of(), RescaleOutcome.Cause.CHANGED_BY_OTHERS, c.message()));
    }
    if (result instanceof RequestResult.Refused r) {
      return Next.over(new RescaleOutcome.Failed(r.message()));
    }
    if (result instanceof RequestResult.Busy b) {
      return Next.over(
          new RescaleOutcome.NotApplied(
              requested, Map.of(), RescaleOutcome.Cause.BUSY, b.message()));
    }
    // No answer is not a refusal: Flink may apply the request later. Back off either way, so the
    // request is never repeated on top of itself.
    return Next.over(
        new RescaleOutcome.Failed(
            ((RequestResult.Unanswered) result).message()
                + "; the request may still take effect, backing off"));
  }

  private Next observed(RescaleStatus status, Instant now) {
    if (status instanceof RescaleStatus.Applied a) {
      // If no poll caught the job down, it was down somewhere since the last poll saw it up.
      return Next.over(
          new RescaleOutcome.Applied(
              a.parallelism(),
              Duration.between(start, now),
              Duration.between(down != null ? down : lastUp, now)));
    }
    if (status instanceof RescaleStatus.ChangedByOthers c) {
      return Next.over(
          new RescaleOutcome.NotApplied(
              wanted, Map.of(), RescaleOutcome.Cause.CHANGED_BY_OTHERS, c.message()));
    }
    if (status instanceof RescaleStatus.Failed f) {
      return Next.over(new RescaleOutcome.Failed(f.message()));
    }
    RescaleStatus.Pending pending = (RescaleStatus.Pending) status;
    if (!pending.up() && down == null) {
      down = now;
    } else if (pending.up() && down == null) {
      lastUp = now;
    }
    if (now.plus(poll).isBefore(start.plus(timeout))) {
      return Next.act(new ScalerAction.Observe(now.plus(poll), wanted));
    }
    return Next.act(new ScalerAction.Abandon(now, wanted, pending, timeout));
  }
}
