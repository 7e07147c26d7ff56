package io.ds2.loop;

import static org.awaitility.Awaitility.await;

import io.ds2.core.options.Ds2Options;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.RestRescaler;
import io.ds2.flink.Sleeper;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.LocalFlinkCluster;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;

/** A running job on a local cluster with a loop wired to it, for the loop's real-Flink tests. */
final class LoopTestSupport implements AutoCloseable {
  final LocalFlinkCluster cluster;
  final JobClient job;
  final FlinkRestClient client;
  final String jobId;

  LoopTestSupport(JobSpec spec, int slotsPerTaskManager, Map<String, String> flinkConf)
      throws Exception {
    cluster =
        LocalFlinkCluster.startWithFastTimings(
            slotsPerTaskManager,
            flinkConf,
            "the loop's tests decide on 6 s windows so that a closed loop settles in a minute or"
                + " two within CI's budget: that needs a refresh well inside a window (1 s) and"
                + " rescales that take effect in seconds; the benchmarks run at Flink's defaults");
    job = cluster.submit(spec);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> job.getJobStatus().get().name().equals("RUNNING"));
    client = new FlinkRestClient(cluster.restUrl(), Duration.ofSeconds(10));
    jobId = job.getJobID().toHexString();
  }

  /** Short windows for tests; {@code overrides} on top. */
  static Ds2Options options(String... overrides) {
    Map<String, String> m = new HashMap<>();
    m.put("window", "6s");
    m.put("warm-up", "4s");
    m.put("sample-interval", "500ms");
    m.put("activation", "1");
    m.put("scale-down-delay", "15s");
    m.put("rescale-timeout", "60s");
    for (int i = 0; i < overrides.length; i += 2) {
      m.put(overrides[i], overrides[i + 1]);
    }
    return Ds2Options.fromMap(m);
  }

  RestRescaler rescaler() {
    return new RestRescaler(client, jobId, Duration.ofMillis(250));
  }

  /** One rescale through REST, to its outcome. */
  RescaleOutcome rescale(Map<String, Integer> target, Duration timeout)
      throws InterruptedException {
    return Rescales.run(rescaler(), target, timeout, Clock.systemUTC(), Sleeper.SYSTEM);
  }

  ControlLoop loop(Ds2Options options, Mode mode, EventSink listener) {
    return RestLoops.of(
        client,
        new io.ds2.flink.JobSampler(client, jobId, java.time.Clock.systemUTC()),
        options,
        mode,
        io.ds2.core.estimate.DemandScenario.measured(),
        listener);
  }

  @Override
  public void close() throws Exception {
    try {
      job.cancel().get();
    } finally {
      cluster.close();
    }
  }
}
