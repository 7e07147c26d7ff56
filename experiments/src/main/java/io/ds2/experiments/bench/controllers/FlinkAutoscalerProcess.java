package io.ds2.experiments.bench.controllers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobSampler;
import io.ds2.flink.RestRescaler;
import io.ds2.flink.Sleeper;
import io.ds2.flink.dto.JobDetails;
import io.ds2.loop.Rescales;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.autoscaler.JobAutoScalerContext;
import org.apache.flink.autoscaler.JobAutoScalerImpl;
import org.apache.flink.autoscaler.RestApiMetricsCollector;
import org.apache.flink.autoscaler.ScalingExecutor;
import org.apache.flink.autoscaler.ScalingMetricEvaluator;
import org.apache.flink.autoscaler.event.LoggingEventHandler;
import org.apache.flink.autoscaler.realizer.ScalingRealizer;
import org.apache.flink.autoscaler.state.InMemoryAutoScalerStateStore;
import org.apache.flink.autoscaler.tuning.ConfigChanges;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/**
 * The child JVM that runs {@code flink-autoscaler:1.10.0} (its jar first on the classpath, as it
 * needs): its REST metric collector, evaluator and executor with in-memory state, called every
 * loop, as its standalone mode does. Its parallelism overrides are realized with ds2's REST
 * rescale; every rescale and the time of every {@code scale()} call is one JSON line on stdout.
 *
 * <p>Arguments: REST URL, job id, loop seconds, then {@code key=value} autoscaler settings (without
 * the {@code job.autoscaler.} prefix).
 */
public final class FlinkAutoscalerProcess {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);

  private FlinkAutoscalerProcess() {}

  public static void main(String[] args) throws Exception {
    URI url = URI.create(args[0]);
    String jobId = args[1];
    Duration loop = Duration.ofSeconds(Long.parseLong(args[2]));
    Configuration conf = new Configuration();
    conf.setString("job.autoscaler.enabled", "true");
    for (int i = 3; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      conf.setString("job.autoscaler." + kv[0], kv[1]);
    }
    Clock clock = Clock.systemUTC();
    FlinkRestClient ours = new FlinkRestClient(url, Duration.ofSeconds(10));
    JobSampler sampler = new JobSampler(ours, jobId, clock);
    RestRescaler rest = new RestRescaler(ours, jobId, Duration.ofMillis(250));
    InMemoryAutoScalerStateStore<String, JobAutoScalerContext<String>> store =
        new InMemoryAutoScalerStateStore<>();
    LoggingEventHandler<String, JobAutoScalerContext<String>> events = new LoggingEventHandler<>();
    ScalingRealizer<String, JobAutoScalerContext<String>> realizer =
        new ScalingRealizer<>() {
          @Override
          public void realizeParallelismOverrides(
              JobAutoScalerContext<String> ctx, Map<String, String> overrides) throws Exception {
            // It re-applies its stored overrides every loop: rescale only on a real change.
            Map<String, Integer> running = sampler.runningParallelism().orElse(null);
            if (running == null) {
              return;
            }
            Map<String, Integer> target = new HashMap<>(running);
            overrides.forEach((v, p) -> target.put(v, Integer.parseInt(p)));
            if (!target.equals(running)) {
              emit("rescale-requested", target, null);
              emit(
                  outcomeKind(
                      Rescales.run(rest, target, Duration.ofSeconds(60), clock, Sleeper.SYSTEM)),
                  target,
                  null);
            }
          }

          @Override
          public void realizeConfigOverrides(
              JobAutoScalerContext<String> ctx, ConfigChanges changes) {}
        };
    JobAutoScalerImpl<String, JobAutoScalerContext<String>> scaler =
        new JobAutoScalerImpl<>(
            new RestApiMetricsCollector<>(),
            new ScalingMetricEvaluator(),
            new ScalingExecutor<>(events, store),
            events,
            realizer,
            store);
    Configuration client = new Configuration();
    client.set(RestOptions.ADDRESS, url.getHost());
    client.set(RestOptions.PORT, url.getPort());
    while (true) {
      // As the operator does on every reconcile: a fresh context with the job's live status and a
      // copy of the configuration. The autoscaler writes into both while it scales (e.g. vertices
      // it excludes); one context kept for the whole run would carry that into every later call.
      // It closes the client after each use, as the operator does: a new one per call.
      JobAutoScalerContext<String> ctx =
          new JobAutoScalerContext<>(
              "bench",
              JobID.fromHexString(jobId),
              liveStatus(ours, jobId),
              conf.clone(),
              new UnregisteredMetricsGroup(),
              () -> new RestClusterClient<>(client, "bench"));
      long t = System.nanoTime();
      scaler.scale(ctx);
      emit("scale-call", Map.of(), System.nanoTime() - t);
      Thread.sleep(loop.toMillis());
    }
  }

  /** The job's state as Flink reports it now; RECONCILING while it cannot be read. */
  private static JobStatus liveStatus(FlinkRestClient rest, String jobId) {
    try {
      return JobStatus.valueOf(rest.get("/jobs/" + jobId, JobDetails.class).state());
    } catch (RuntimeException e) {
      return JobStatus.RECONCILING;
    }
  }

  private static String outcomeKind(RescaleOutcome o) {
    return o instanceof RescaleOutcome.Applied ? "rescale-applied" : "rescale-not-applied";
  }

  private static void emit(String kind, Map<String, Integer> target, Long nanos) {
    ObjectNode n = JSON.createObjectNode().put("kind", kind);
    target.forEach(n.putObject("target")::put);
    if (nanos != null) {
      n.put("nanos", nanos);
    }
    OUT.println(n);
  }
}
