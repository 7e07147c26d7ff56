package io.ds2.controller.loop;

import io.ds2.flink.FlinkRestException;
import io.ds2.flink.Sleeper;
import io.ds2.model.estimate.DemandScenario;
import io.ds2.model.estimate.Estimate;
import io.ds2.model.options.Ds2Options;
import io.ds2.model.policy.Decision;
import io.ds2.model.policy.ScalingPolicy;
import io.ds2.model.scaler.Actuator;
import io.ds2.model.scaler.JobTopology;
import io.ds2.model.scaler.MetricSource;
import io.ds2.model.scaler.Mode;
import io.ds2.model.scaler.ScalerEvent;
import java.time.Clock;

/**
 * The loop's own pipeline for a single window ({@code recommend}, calibration): observed and
 * decided on in dry run, never acted on. A problem the loop would retry ends it instead.
 */
public final class OneWindow {
  private OneWindow() {}

  /**
   * @param progress told how the window fills
   * @throws FlinkRestException METRICS_UNAVAILABLE if no clean window forms in time or polling
   *     fails; JOB_NOT_RUNNING if the job ends
   */
  public static Estimate estimate(
      MetricSource source, Ds2Options options, DemandScenario demand, EventSink progress)
      throws InterruptedException {
    ControlLoop loop =
        new ControlLoop(
            source,
            new ScalingPolicy(options),
            Actuator.unsupported("a single window never rescales"),
            Mode.DRY_RUN,
            demand,
            EventSink.all(progress, FAIL_ON_PROBLEM),
            Sleeper.SYSTEM,
            Clock.systemUTC());
    return loop.step().estimate();
  }

  private static final EventSink FAIL_ON_PROBLEM =
      new EventSink() {
        private void decided(JobTopology topology, Decision decision, Mode mode) {}

        private void problem(ScalerEvent.Problem p) {
          throw new FlinkRestException(FlinkRestException.Kind.METRICS_UNAVAILABLE, p.message());
        }

        @Override
        public void on(JobTopology topology, ScalerEvent event) {
          if (event instanceof ScalerEvent.Decided d) {
            decided(topology, d.decision(), d.mode());
          } else if (event instanceof ScalerEvent.Problem p) {
            problem(p);
          }
        }
      };
}
