package io.ds2.core.scaler;

import io.ds2.core.policy.SlotCapacity;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Carries out one job's rescales, in steps that each return at once: request, then observe until
 * applied, or abandon at the timeout. Flink's REST rescale and the Kubernetes overrides patch are
 * two implementations; the scaler core measures time and downtime, once, for both.
 */
public interface Actuator {
  /** Asks for {@code target} (parallelism by vertex id; vertices not named keep theirs). */
  RequestResult request(Map<String, Integer> target);

  /** How the request shows in the job now. */
  RescaleStatus observe(Map<String, Integer> wanted);

  /** How often a rescale in flight is observed; also the resolution of measured downtime. */
  Duration pollInterval();

  /**
   * The rescale did not show within {@code timeout}: undo what could let it take effect later by
   * surprise, and say what was wanted and what runs.
   *
   * @param last the last observation
   * @return one line for the not-applied outcome
   */
  String abandon(Map<String, Integer> wanted, RescaleStatus.Pending last, Duration timeout);

  /**
   * How many slots the job can get now (read at the start of each window): unknown where the
   * cluster starts task managers on demand, or where reading it failed.
   */
  default SlotCapacity capacity() {
    return SlotCapacity.unknown();
  }

  /** A rescale an earlier controller instance requested and did not see through, if any. */
  default Optional<Map<String, Integer>> inFlight() {
    return Optional.empty();
  }

  /** An actuator for replays and advisors: every request is unsupported. */
  static Actuator unsupported(String why) {
    return new Actuator() {
      @Override
      public RequestResult request(Map<String, Integer> target) {
        return new RequestResult.Unsupported(why);
      }

      @Override
      public RescaleStatus observe(Map<String, Integer> wanted) {
        return new RescaleStatus.Failed(why);
      }

      @Override
      public Duration pollInterval() {
        return Duration.ofSeconds(1);
      }

      @Override
      public String abandon(
          Map<String, Integer> wanted, RescaleStatus.Pending last, Duration timeout) {
        return why;
      }
    };
  }
}
