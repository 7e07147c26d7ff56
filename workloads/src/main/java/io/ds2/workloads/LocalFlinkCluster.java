package io.ds2.workloads;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * An in-process Flink cluster with its REST endpoint on a free loopback port and the adaptive
 * scheduler (REST rescale). {@link #startAtFlinkDefaults} leaves Flink's timings and buffers at its
 * defaults, as the benchmarks run it; {@link #startWithFastTimings} shortens the timings so that a
 * test or the demo settles in seconds, and its caller must say why.
 */
public final class LocalFlinkCluster implements AutoCloseable {
  /**
   * Network buffers small enough that an overloaded vertex back-pressures its sources within
   * seconds (4 KiB segments, 2 buffers per channel and 2 floating per gate: ~24 KiB in flight per
   * channel instead of ~1 MiB). With Flink's defaults and small records the overflow sits in
   * buffers for minutes, so sources show no backlog while the job falls behind. They also cap a
   * wide exchange: the word count's FlatMap (10) to Count (25), 250 channels of 8-byte records
   * flushed every 100 ms, carried about 350 of 480 sentences/s with no subtask saturated.
   */
  public static final Map<String, String> SMALL_NETWORK_BUFFERS =
      Map.of(
          "taskmanager.memory.segment-size", "4kb",
          "taskmanager.network.memory.buffers-per-channel", "2",
          "taskmanager.network.memory.floating-buffers-per-gate", "2",
          "taskmanager.network.memory.max-buffers-per-channel", "2");

  private final MiniCluster cluster;
  private final int restPort;

  private LocalFlinkCluster(MiniCluster cluster, int restPort) {
    this.cluster = cluster;
    this.restPort = restPort;
  }

  /**
   * Starts 2 TaskManagers with {@code slotsPerTaskManager} slots each, with Flink's timings
   * shortened: a 1 s metric fetch interval (Flink's default is 10 s, so a window of a few seconds
   * would see one refresh or none) and 1 s adaptive-scheduler cool-downs (a rescale takes effect in
   * seconds). Users run Flink at its defaults, so a test (or the demo) that takes these says why,
   * as a job that must not chain does ({@link JobSpec#unchained}).
   *
   * @param overrides Flink configuration applied last
   * @param why the caller's reason, for the reader of its code
   */
  public static LocalFlinkCluster startWithFastTimings(
      int slotsPerTaskManager, Map<String, String> overrides, String why) throws Exception {
    if (why == null || why.isBlank()) {
      throw new IllegalArgumentException("a cluster off Flink's default timings says why");
    }
    return start(slotsPerTaskManager, true, overrides);
  }

  /**
   * A cluster at Flink's defaults but for what an in-process cluster on loopback with REST
   * rescaling needs: the adaptive scheduler and enough network memory for the jobs' channels (a
   * MiniCluster's default is 64 MiB in all). Metric fetch interval (10 s), adaptive-scheduler
   * cool-downs and network buffers per channel are Flink's; {@code overrides} applied last.
   */
  public static LocalFlinkCluster startAtFlinkDefaults(
      int slotsPerTaskManager, Map<String, String> overrides) throws Exception {
    return start(slotsPerTaskManager, false, overrides);
  }

  private static LocalFlinkCluster start(
      int slotsPerTaskManager, boolean fastTimings, Map<String, String> overrides)
      throws Exception {
    Map<String, String> conf = new HashMap<>();
    conf.put("rest.address", "127.0.0.1");
    conf.put("rest.bind-address", "127.0.0.1");
    // Flink binds a free port itself and says which: choosing one beforehand (bind 0, close,
    // reuse the number) races with every other socket opened meanwhile.
    conf.put("rest.bind-port", "0");
    conf.put("jobmanager.bind-host", "127.0.0.1");
    conf.put("taskmanager.bind-host", "127.0.0.1");
    conf.put("taskmanager.host", "127.0.0.1");
    conf.put("jobmanager.scheduler", "adaptive");
    if (fastTimings) {
      conf.put("metrics.fetcher.update-interval", "1000");
      // Short cooldowns so a rescale takes effect in seconds (1.20 and 2.x key names).
      conf.put("jobmanager.adaptive-scheduler.scaling-interval.min", "1 s");
      conf.put("jobmanager.adaptive-scheduler.resource-stabilization-timeout", "1 s");
      conf.put("jobmanager.adaptive-scheduler.executing.cooldown-after-rescaling", "1 s");
      conf.put("jobmanager.adaptive-scheduler.executing.resource-stabilization-timeout", "1 s");
      conf.put("jobmanager.adaptive-scheduler.submission.resource-stabilization-timeout", "1 s");
    }
    conf.put("taskmanager.memory.network.min", "128 mb");
    conf.put("taskmanager.memory.network.max", "128 mb");
    conf.putAll(overrides);
    MiniClusterConfiguration cfg =
        new MiniClusterConfiguration.Builder()
            .setConfiguration(Configuration.fromMap(conf))
            .setNumTaskManagers(2)
            .setNumSlotsPerTaskManager(slotsPerTaskManager)
            .build();
    MiniCluster cluster = new MiniCluster(cfg);
    cluster.start();
    try {
      return new LocalFlinkCluster(cluster, cluster.getRestAddress().get().getPort());
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
  }

  public URI restUrl() {
    return URI.create("http://127.0.0.1:" + restPort);
  }

  /** Builds the job described by {@code spec} and submits it; returns once it is accepted. */
  public JobClient submit(Workload spec) throws Exception {
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createRemoteEnvironment("127.0.0.1", restPort);
    spec.build(env);
    return env.executeAsync(spec.name());
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
