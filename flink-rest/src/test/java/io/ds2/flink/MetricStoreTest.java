package io.ds2.flink;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.window.JobSample;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reading Flink's lazily refreshed metric store: a stand-in that behaves like the JobManager's
 * {@code MetricFetcherImpl} (a request more than the update interval after the last refresh starts
 * one, whose values land 40 ms later; until then every request reads the previous values).
 */
class MetricStoreTest {
  private static final long REFRESH_MS = 400;
  private static final long FETCH_TAKES_MS = 40;
  private static final String DETAILS =
      "{\"jid\":\"j\",\"name\":\"job\",\"state\":\"RUNNING\",\"timestamps\":{\"RUNNING\":1000},"
          + "\"vertices\":[{\"id\":\"s\",\"name\":\"Source: S\",\"parallelism\":1,\"maxParallelism\":128,\"status\":\"RUNNING\"}],"
          + "\"plan\":{\"nodes\":[{\"id\":\"s\"}]}}";
  private static final String NAMES =
      "[{\"id\":\"numRecordsIn\"},{\"id\":\"numRecordsOut\"},{\"id\":\"accumulateBusyTimeMs\"},"
          + "{\"id\":\"accumulateIdleTimeMs\"},{\"id\":\"accumulateBackPressuredTimeMs\"},"
          + "{\"id\":\"Source__S.pendingRecords\"}]";

  private MockWebServer server;
  private final LazyStore store = new LazyStore();

  /** Refresh generations: the values a reader sees are those of the newest one that landed. */
  private static final class LazyStore {
    private long lastRefresh = Long.MIN_VALUE / 2;
    private final List<Long> landsAt = new ArrayList<>();

    synchronized long read() {
      long now = System.currentTimeMillis();
      long generation = landsAt.stream().filter(t -> t <= now).count();
      if (now - lastRefresh > REFRESH_MS) {
        lastRefresh = now;
        landsAt.add(now + FETCH_TAKES_MS);
      }
      return generation;
    }

    synchronized int refreshes() {
      return landsAt.size();
    }
  }

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest r) {
            String path = r.getPath().split("\\?")[0];
            return switch (path) {
              case "/jobmanager/config" ->
                  json(
                      "[{\"key\":\"metrics.fetcher.update-interval\",\"value\":\""
                          + REFRESH_MS
                          + "\"}]");
              case "/jobs/j" -> {
                store.read(); // the job-details handler asks the store to refresh, too
                yield json(DETAILS);
              }
              case "/jobs/j/vertices/s/subtasks/metrics" -> json(NAMES);
              case "/jobs/j/metrics" -> json("[{\"id\":\"numRestarts\",\"value\":\"0\"}]");
              case "/jobs/j/vertices/s/metrics" -> {
                long g = store.read();
                yield json(
                    "[{\"id\":\"0.numRecordsOut\",\"value\":\""
                        + (100 * g)
                        + "\"},{\"id\":\"0.Source__S.pendingRecords\",\"value\":\"0\"}]");
              }
              default -> new MockResponse().setResponseCode(404).setBody("{\"errors\":[]}");
            };
          }
        });
    server.start(InetAddress.getLoopbackAddress(), 0);
  }

  private static MockResponse json(String body) {
    return new MockResponse().setBody(body);
  }

  @AfterEach
  void stop() throws Exception {
    server.shutdown();
  }

  private JobSampler sampler(JobSampler.Reads reads) {
    return sampler(reads, Sleeper.SYSTEM);
  }

  private JobSampler sampler(JobSampler.Reads reads, Sleeper sleeper) {
    return new JobSampler(
        new FlinkRestClient(server.url("/").uri(), Duration.ofSeconds(2)),
        "j",
        Clock.systemUTC(),
        reads,
        sleeper);
  }

  /** A sampler that may not sleep: its caller waits for settle()'s answers instead. */
  private JobSampler sleepless(JobSampler.Reads reads) {
    return sampler(
        reads,
        d -> {
          if (!d.isZero()) {
            throw new AssertionError("the sampler slept " + d + " although settled");
          }
        });
  }

  /** What a shared scheduler does: ask settle() again until it says ready, then sample. */
  private static JobSample settledSample(JobSampler sampler, JobGraph graph) {
    await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(10))
        .until(() -> sampler.settle().isZero());
    return sampler.sample(graph);
  }

  private static double emitted(JobSample s) {
    return s.vertices().get("s").subtasks().get(0).recordsOut().getAsDouble();
  }

  @Test
  void aPollReadsTheRefreshItsOwnRequestStarted() {
    JobSampler sampler = sampler(JobSampler.Reads.LATEST);
    JobGraph graph = JobGraph.of(List.of(new Vertex("s", "Source: S", 128)), List.of());
    JobSample s = sampler.sample(graph);
    assertEquals(1, store.refreshes(), "the poll's job-details request started a refresh");
    assertEquals(100, emitted(s), "and the poll read its values, not the ones before it");
    assertEquals(Optional.of(Duration.ofMillis(REFRESH_MS)), sampler.metricRefresh());
  }

  @Test
  void aSettledPollReadsTheRefreshItsRequestStartedWithoutSleeping() throws Exception {
    JobSampler sampler = sleepless(JobSampler.Reads.LATEST);
    JobGraph graph = JobGraph.of(List.of(new Vertex("s", "Source: S", 128)), List.of());
    Duration first = sampler.settle();
    assertTrue(
        first.compareTo(Duration.ofMillis(50)) > 0, "the refresh it started is awaited: " + first);
    assertEquals(1, store.refreshes());
    assertEquals(100, emitted(settledSample(sampler, graph)), "the refresh's values, not older");
    assertEquals(1, store.refreshes(), "waiting out the settle time asked for no second refresh");
  }

  @Test
  void freshReadsThroughSettleNeverRepeatAReadingNorSleep() throws Exception {
    JobSampler sampler = sleepless(JobSampler.Reads.FRESH);
    JobGraph graph = sampler.topology().graph();
    List<Double> readings = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      readings.add(emitted(settledSample(sampler, graph)));
    }
    for (int i = 1; i < readings.size(); i++) {
      assertTrue(readings.get(i) > readings.get(i - 1), "a new reading every poll: " + readings);
    }
  }

  @Test
  void freshReadsNeverRepeatAReading() {
    JobSampler sampler = sampler(JobSampler.Reads.FRESH);
    JobGraph graph = sampler.topology().graph();
    List<Double> readings = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      readings.add(emitted(sampler.sample(graph)));
    }
    for (int i = 1; i < readings.size(); i++) {
      assertTrue(readings.get(i) > readings.get(i - 1), "a new reading every poll: " + readings);
    }
  }

  @Test
  void flinkDurationsAsTheOptionIsWritten() {
    assertEquals(Optional.of(Duration.ofSeconds(10)), MetricStore.parse("10000"));
    assertEquals(Optional.of(Duration.ofSeconds(10)), MetricStore.parse("10 s"));
    assertEquals(Optional.of(Duration.ofMillis(500)), MetricStore.parse("500ms"));
    assertEquals(Optional.of(Duration.ofMinutes(1)), MetricStore.parse("1 min"));
    assertEquals(Optional.empty(), MetricStore.parse("soon"));
  }
}
