package io.ds2.flink;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.SampleJobs;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.Test;

/**
 * A cluster at Flink's defaults, its default scheduler included, cannot rescale through REST: say
 * so, change nothing.
 */
class RestRescalerUnsupportedTest {
  @Test
  void defaultSchedulerIsUnsupported() throws Exception {
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.startAtFlinkDefaults(4, Map.of("jobmanager.scheduler", "default"))) {
      JobClient job = cluster.submit(SampleJobs.ordersAndPayments());
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> job.getJobStatus().get().name().equals("RUNNING"));
      FlinkRestClient client = new FlinkRestClient(cluster.restUrl(), Duration.ofSeconds(10));
      String jobId = job.getJobID().toHexString();
      RestRescaler rescaler = new RestRescaler(client, jobId, Duration.ofMillis(200));
      RescaleOutcome outcome = Rescales.run(rescaler, Map.of(), Duration.ofSeconds(10));
      RescaleOutcome.Unsupported u = assertInstanceOf(RescaleOutcome.Unsupported.class, outcome);
      assertTrue(u.message().contains("is jobmanager.scheduler set to adaptive?"), u.message());
      job.cancel().get();
    }
  }
}
