package io.ds2.experiments.bench;

import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.MetricSource;
import io.ds2.core.scaler.SourceFailure;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobSampler;
import io.ds2.flink.RestRescaler;
import io.ds2.recording.LiveRecording;
import io.ds2.recording.Recorded;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.source.RateControl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.core.execution.JobClient;

/**
 * Runs one scenario under one controller on a fresh MiniCluster: submits the job, records it at 1
 * Hz (a ds2 recording with the phases and every rescale as events), lets the controller act, steps
 * the load on schedule, and returns the SASO figures computed from the recording.
 */
public final class ScenarioRun {
  private static final Duration SAMPLE = Duration.ofSeconds(1);

  /** Where the job's records come from. */
  /** Event kind: the Kafka producers fell behind their schedule (they burst to catch up). */
  static final String FEED_BEHIND = "feed-behind";

  // A producer checks every 5 ms: at a few hundred records/s, a handful due is no stall.
  private static final long FEED_BEHIND_RECORDED = 100;

  public enum Feed {
    /** Sources generating in the job, their rate set in-process (no backlog survives a rescale). */
    SYNTHETIC,
    /** A real Kafka broker with a producer per source; checkpointed offsets ({@link KafkaFeed}). */
    KAFKA
  }

  private ScenarioRun() {}

  public static Saso.Result run(Scenario scenario, BenchController controller, Path dir)
      throws Exception {
    return run(scenario, controller, dir, 1);
  }

  /**
   * The {@code repeat}-th run of {@code scenario} under {@code controller}; its files are named
   * {@code <scenario>__<controller>[__r<repeat>]} (no suffix for the first).
   */
  public static Saso.Result run(Scenario scenario, BenchController controller, Path dir, int repeat)
      throws Exception {
    return run(scenario, controller, dir, repeat, Feed.SYNTHETIC);
  }

  /** As above, with the job's records from {@code feed}, on the earlier bench's cluster. */
  public static Saso.Result run(
      Scenario scenario, BenchController controller, Path dir, int repeat, Feed feed)
      throws Exception {
    return run(scenario, controller, dir, repeat, feed, ClusterSettings.TUNED);
  }

  /** As above, on a cluster configured as {@code cluster} says. */
  public static Saso.Result run(
      Scenario scenario,
      BenchController controller,
      Path dir,
      int repeat,
      Feed feed,
      ClusterSettings cluster)
      throws Exception {
    String key = "bench-" + scenario.name() + "-" + controller.name();
    String base = scenario.name() + "__" + controller.name() + (repeat == 1 ? "" : "__r" + repeat);
    Path file = dir.resolve(base + ".jsonl.gz");
    RateControl.set(key, scenario.phases().get(0).factor());
    Clock clock = Clock.systemUTC();
    DecisionTimer timer = new DecisionTimer();
    Path brokerDir = feed == Feed.KAFKA ? Files.createTempDirectory("ds2-bench-kafka-") : null;
    try (KafkaFeed kafka =
            brokerDir == null ? null : KafkaFeed.start(scenario, brokerDir, cluster);
        LocalFlinkCluster flink = cluster.start(scenario.slotsPerTaskManager(), feed)) {
      JobClient job =
          flink.submit(kafka == null ? scenario.job().withRateControl(key) : kafka.job());
      String jobId = job.getJobID().toHexString();
      FlinkRestClient rest = new FlinkRestClient(flink.restUrl(), Duration.ofSeconds(10));
      JobSampler sampler = new JobSampler(rest, jobId, clock);
      JobTopology topology = awaitRunning(sampler);
      // What a user tells ds2 of a generator's splits; Kafka's metrics name its partitions.
      Map<String, Integer> splits = kafka == null ? scenario.job().sourceSplits() : Map.of();
      try (LiveRecording recording =
          LiveRecording.start(
              file,
              rest,
              sampler,
              topology,
              SAMPLE,
              recordedOptions(controller, feed, cluster),
              splits,
              clock)) {
        BenchRescaler rescaler =
            new BenchRescaler(
                new RestRescaler(rest, jobId, Duration.ofMillis(250)), recording.writer(), clock);
        Instant start = clock.instant();
        if (kafka != null) {
          kafka.produce(scenario); // the schedule's clock starts with the run's
        }
        phase(recording, scenario, 0, start);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread recorder = thread("recorder", () -> record(recording, topology, kafka), failed);
        Thread control =
            thread(
                controller.name(),
                () ->
                    controller.run(
                        new BenchController.Context(
                            rest, jobId, clock, recording.writer(), rescaler, timer, splits)),
                failed);
        try {
          for (int i = 1; i < scenario.phases().size(); i++) {
            Scenario.Phase p = scenario.phases().get(i);
            sleepUntil(start.plusMillis((long) (p.atSeconds() * 1000)));
            phase(recording, scenario, i, start);
            double from = scenario.phases().get(i - 1).factor();
            for (int s = 1; s < p.rampSeconds(); s++) { // a ramp: one small step per second
              RateControl.set(key, from + (p.factor() - from) * s / p.rampSeconds());
              sleepUntil(start.plusMillis((long) ((p.atSeconds() + s) * 1000)));
            }
            RateControl.set(key, p.factor());
          }
          sleepUntil(start.plus(scenario.length()));
        } finally {
          control.interrupt();
          recorder.interrupt();
          control.join(30_000);
          recorder.join(30_000);
        }
        if (failed.get() != null) {
          throw new IllegalStateException(
              controller.name() + " failed: " + failed.get(), failed.get());
        }
      } finally {
        job.cancel().get();
      }
    } finally {
      RateControl.clear(key);
      if (brokerDir != null) {
        deleteTree(brokerDir);
      }
    }
    return Saso.compute(
        scenario, controller.name(), file, timer, repeat, controller.targetUtilization());
  }

  private static void phase(LiveRecording r, Scenario s, int i, Instant start) {
    var details = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
    details.put("index", i).put("factor", s.phases().get(i).factor());
    details.put("startMs", start.toEpochMilli());
    s.oracle(i).forEach(details.putObject("oracle")::put);
    r.writer()
        .write(
            new Recorded.Event(
                Instant.now(), "phase", "load x" + s.phases().get(i).factor(), details));
  }

  private static void record(LiveRecording recording, JobTopology topology, KafkaFeed kafka)
      throws InterruptedException {
    MetricSource source = recording.source();
    while (!Thread.currentThread().isInterrupted()) {
      try {
        source.sample(topology.graph());
      } catch (SourceFailure e) {
        // A poll during a rescale may fail; the next one records the new state.
      }
      long behind = kafka == null ? 0 : kafka.behind();
      if (behind >= FEED_BEHIND_RECORDED) {
        var details = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        details.put("records", behind);
        recording
            .writer()
            .write(
                new Recorded.Event(
                    Instant.now(),
                    FEED_BEHIND,
                    "the producers are " + behind + " records behind their schedule",
                    details));
      }
      Thread.sleep(SAMPLE.toMillis());
    }
  }

  private static JobTopology awaitRunning(JobSampler sampler) throws InterruptedException {
    Instant deadline = Instant.now().plusSeconds(60);
    while (true) {
      try {
        if (sampler.runningParallelism().isPresent()) {
          return sampler.topology();
        }
      } catch (SourceFailure e) {
        if (Instant.now().isAfter(deadline)) {
          throw e;
        }
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("job not RUNNING within 60 s");
      }
      Thread.sleep(200);
    }
  }

  private interface Body {
    void run() throws Exception;
  }

  private static Thread thread(String name, Body body, AtomicReference<Throwable> failed) {
    Thread t =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (InterruptedException e) {
                // asked to stop
              } catch (Throwable e) {
                failed.compareAndSet(null, e);
              }
            },
            "bench-" + name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static void sleepUntil(Instant t) throws InterruptedException {
    long ms = Duration.between(Instant.now(), t).toMillis();
    if (ms > 0) {
      Thread.sleep(ms);
    }
  }

  /** The controller's ds2 options (for whatif to replay with), its name and the feed. */
  private static Map<String, String> recordedOptions(
      BenchController controller, Feed feed, ClusterSettings cluster) {
    Map<String, String> o = new java.util.LinkedHashMap<>(controller.options());
    o.put("controller", controller.name());
    o.put("feed", feed.name().toLowerCase(Locale.ROOT));
    o.put("cluster", cluster.label());
    // The commit the bench was built from (bin/ds2-bench), "-dirty" with uncommitted changes.
    o.put("commit", System.getProperty("ds2.commit", "unknown"));
    if (feed == Feed.KAFKA) {
      // The runs before 2026-12-03 21:40 UTC fetched 4 KiB on both clusters and do not say so.
      o.put(
          "kafka-fetch",
          cluster == ClusterSettings.FLINK_DEFAULTS ? "kafka-defaults" : "4KiB-per-partition");
    }
    return o;
  }
}
