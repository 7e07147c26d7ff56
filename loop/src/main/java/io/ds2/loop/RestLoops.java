package io.ds2.loop;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.scaler.MetricSource;
import io.ds2.core.scaler.Mode;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.RestRescaler;
import io.ds2.flink.Sleeper;
import java.time.Clock;
import java.time.Duration;

/** The loop's REST ends: metrics from Flink's REST API, in-place REST rescales, real time. */
public final class RestLoops {
  // How often a rescale's progress is polled; also the resolution of measured downtime.
  private static final Duration RESCALE_POLL = Duration.ofMillis(250);

  private RestLoops() {}

  /**
   * @param source usually a {@link io.ds2.flink.JobSampler} on {@code client}, possibly wrapped
   *     (recording)
   */
  public static ControlLoop of(
      FlinkRestClient client,
      MetricSource source,
      Ds2Options options,
      Mode mode,
      DemandScenario demand,
      EventSink listener) {
    return new ControlLoop(
        source,
        new ScalingPolicy(options),
        new RestRescaler(client, source.jobId(), RESCALE_POLL),
        mode,
        demand,
        listener,
        Sleeper.SYSTEM,
        Clock.systemUTC());
  }
}
