package io.ds2.flink;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.flink.dto.ClusterOverview;
import io.ds2.flink.dto.JobDetails;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.SampleJobs;
import io.ds2.workloads.Workload;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * What a job holds under two slot-sharing groups, on a real MiniCluster: the sample fan-in job with
 * its Join -> Sink chain put in a group of its own (as teams isolate a heavy keyed stage), every
 * vertex at parallelism 1. The job holds one slot per group, 2 of the cluster's 8, so it can get
 * all 8; counted as its largest vertex it would seem to hold 1 and get 7.
 */
class ClusterSlotsIntegrationTest {
  @Test
  void aJobInTwoSlotSharingGroupsHoldsOneSlotPerGroup() throws Exception {
    try (LocalFlinkCluster cluster = LocalFlinkCluster.startAtFlinkDefaults(4, Map.of())) {
      JobClient job = cluster.submit(new HeavyStageInItsOwnGroup(SampleJobs.ordersAndPayments()));
      try {
        FlinkRestClient client = new FlinkRestClient(cluster.restUrl(), Duration.ofSeconds(10));
        String jobId = job.getJobID().toHexString();
        // Running, every task deployed: the slots are taken.
        await()
            .atMost(Duration.ofSeconds(60))
            .ignoreException(FlinkRestException.class)
            .until(
                () -> client.get("/jobs/" + jobId, JobDetails.class),
                d ->
                    d.vertices().size() == 3
                        && d.vertices().stream().allMatch(v -> "RUNNING".equals(v.status()))
                        && client.get("/overview", ClusterOverview.class).slotsAvailable() == 6);

        Set<String> groups = new HashSet<>();
        new JobSampler(client, jobId, Clock.systemUTC())
            .topology()
            .graph()
            .topologicalOrder()
            .forEach(v -> groups.add(v.slotSharingGroup().orElseThrow()));
        assertEquals(2, groups.size(), "the sources' group and the Join's");
        assertEquals(
            2, ClusterSlots.held(client.get("/jobs/" + jobId, JobDetails.class).vertices()));
        assertEquals(8, ClusterSlots.of(client, jobId).slots().getAsInt());
      } finally {
        job.cancel().get();
      }
    }
  }

  /** {@code spec} with its Join and Sink in slot-sharing group {@code heavy} (still chained). */
  private record HeavyStageInItsOwnGroup(JobSpec spec) implements Workload {
    @Override
    public String name() {
      return spec.name();
    }

    @Override
    public Workload withRateControl(String key) {
      return new HeavyStageInItsOwnGroup(spec.withRateControl(key));
    }

    @Override
    public void build(StreamExecutionEnvironment env) {
      spec.build(env);
      // Every operator after the sources is in the environment's list (Join and Sink among them).
      for (Transformation<?> t : env.getTransformations()) {
        if (List.of("Join", "Sink").contains(t.getName())) {
          t.setSlotSharingGroup("heavy");
        }
      }
    }

    @Override
    public Map<String, Integer> oracle(double rateFactor) {
      return spec.oracle(rateFactor);
    }

    @Override
    public double baseRate() {
      return spec.baseRate();
    }

    @Override
    public int sourceParallelism() {
      return spec.sourceParallelism();
    }

    @Override
    public Map<String, Integer> sourceSplits() {
      return spec.sourceSplits();
    }

    @Override
    public Map<String, Double> sourceRates() {
      return spec.sourceRates();
    }
  }
}
