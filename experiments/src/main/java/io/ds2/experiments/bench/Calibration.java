package io.ds2.experiments.bench;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.window.ObservationWindow;
import io.ds2.core.window.VertexObservation;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobSampler;
import io.ds2.loop.OneWindow;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.JobSpec.OperatorSpec;
import io.ds2.workloads.JobSpec.SourceSpec;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.source.RateSchedule;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;

/**
 * The protocol's calibration (benchmark-protocol.md section 2): one operator costing 1 ms per
 * record fed 500 records/s must be busy about 500 ms per second and show a true processing rate of
 * about 1,000 records/s, or the controlled costs (and every oracle) are off on this machine.
 */
public final class Calibration {
  /** What one 20 s window measured. */
  public record Result(
      double costMs,
      double inputRate,
      double busyMsPerSecond,
      double trueRatePerInstance,
      double expectedBusyMsPerSecond,
      double expectedTrueRate) {}

  private Calibration() {}

  public static Result run() throws Exception {
    JobSpec job =
        new JobSpec(
            "calibration",
            List.of(new SourceSpec("In", RateSchedule.constant(500), 1)),
            List.of(new OperatorSpec("Work", List.of("In"), 1, 0, 1, false, 0)));
    Ds2Options o =
        Ds2Options.fromMap(Map.of("window", "20s", "warm-up", "5s", "sample-interval", "500ms"));
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.startWithFastTimings(
            2,
            Map.of(),
            "the calibration's one 20 s window must see twenty refreshes, not two, to measure the"
                + " cost to a percent")) {
      JobClient client = cluster.submit(job);
      try {
        FlinkRestClient rest = new FlinkRestClient(cluster.restUrl(), Duration.ofSeconds(10));
        JobSampler sampler =
            new JobSampler(rest, client.getJobID().toHexString(), Clock.systemUTC());
        JobTopology topology = awaitTopology(sampler);
        OneWindow.Result result =
            OneWindow.estimate(sampler, o, DemandScenario.measured(), (t, e) -> {});
        if (!(result instanceof OneWindow.Result.Estimated estimated)) {
          throw new IllegalStateException(
              "calibration: no window: " + ((OneWindow.Result.NoWindow) result).why());
        }
        ObservationWindow w = estimated.estimate().window();
        Vertex work =
            topology.graph().topologicalOrder().stream()
                .filter(v -> v.name().equals("Work"))
                .findFirst()
                .orElseThrow();
        VertexObservation obs = w.vertex(work.id()).orElseThrow();
        return new Result(
            1,
            obs.observedInputRate(),
            obs.busyRatio().orElseThrow() * 1000,
            obs.trueProcessingRatePerInstance().orElseThrow(),
            500,
            1000);
      } finally {
        client.cancel().get();
      }
    }
  }

  private static JobTopology awaitTopology(JobSampler sampler) throws InterruptedException {
    for (int i = 0; ; i++) {
      try {
        if (sampler.runningParallelism().isPresent()) {
          return sampler.topology();
        }
      } catch (io.ds2.core.scaler.SourceFailure e) {
        if (i > 300) {
          throw e;
        }
      }
      Thread.sleep(200);
    }
  }
}
