package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.forecast.DemandHistory;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.scaler.JobScaler;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.SavedState;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.core.scaler.StateStore;
import io.ds2.loop.ControlLoop;
import io.ds2.testkit.FakeJob;
import io.ds2.testkit.FluidJob;
import io.ds2.testkit.ManualClock;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's {@code /metrics}, scraped by a real Prometheus, answers every query of the Grafana
 * dashboard with series carrying the labels the panel groups by. The metrics come from the real
 * loop on a fake job (decisions, an applied rescale, a problem) and the real management server.
 */
@Tag("prometheus")
class MetricsOnPrometheusTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path DASHBOARD = Path.of("..", "deploy", "dashboard", "ds2-grafana.json");
  private static final Pattern BY = Pattern.compile("by \\(([^)]*)\\)");
  @TempDir Path dir;

  @Test
  void everyDashboardQueryReturnsSeriesWithItsLabels() throws Exception {
    OperatorMetrics metrics = new OperatorMetrics();
    populate(metrics);
    Path bin = TestServers.binaries();
    try (HealthServer management =
        new HealthServer("127.0.0.1", 0, () -> true, () -> true, metrics)) {
      int port = freePort();
      Files.writeString(
          dir.resolve("prometheus.yml"),
          "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
              + "scrape_configs:\n  - job_name: ds2\n    static_configs:\n"
              + "      - targets: ['127.0.0.1:"
              + management.port()
              + "']\n");
      Process prometheus =
          new ProcessBuilder(
                  bin.resolve("prometheus").toString(),
                  "--config.file=" + dir.resolve("prometheus.yml"),
                  "--storage.tsdb.path=" + dir.resolve("data"),
                  "--web.listen-address=127.0.0.1:" + port)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("prometheus.log").toFile())
              .start();
      try {
        String api = "http://127.0.0.1:" + port;
        // Rates need two scrapes: wait until the counters have a rate.
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(500))
            .ignoreExceptions()
            .until(() -> !query(api, "rate(ds2_decisions_total[5m])").isEmpty());
        List<String> checked = new ArrayList<>();
        for (JsonNode panel : JSON.readTree(DASHBOARD.toFile()).get("panels")) {
          for (JsonNode target : panel.get("targets")) {
            String expr =
                target.get("expr").asText().replace("$namespace", ".*").replace("$resource", ".*");
            List<JsonNode> series = query(api, expr);
            assertTrue(!series.isEmpty(), "no series for " + expr);
            Set<String> expected = expectedLabels(expr);
            for (JsonNode s : series) {
              Set<String> labels = new HashSet<>();
              s.get("metric").fieldNames().forEachRemaining(labels::add);
              assertTrue(labels.containsAll(expected), expr + " gives " + labels);
            }
            checked.add(expr);
          }
        }
        assertEquals(11, checked.size(), "every query of the dashboard: " + checked);
      } finally {
        prometheus.destroy();
      }
    }
  }

  /** The labels a panel shows: those it groups by, else the metric's own. */
  private static Set<String> expectedLabels(String expr) {
    Matcher by = BY.matcher(expr);
    if (by.find()) {
      Set<String> labels = new HashSet<>();
      for (String l : by.group(1).split(",")) {
        labels.add(l.strip());
      }
      return labels;
    }
    if (expr.startsWith("max(")) {
      return Set.of();
    }
    return expr.contains("ds2_vertex_")
        ? Set.of("namespace", "resource", "vertex")
        : Set.of("namespace", "resource");
  }

  private static List<JsonNode> query(String api, String expr) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            api
                                + "/api/v1/query?query="
                                + URLEncoder.encode(expr, StandardCharsets.UTF_8)))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    JsonNode body = JSON.readTree(r.body());
    assertEquals("success", body.path("status").asText(), expr + ": " + r.body());
    List<JsonNode> series = new ArrayList<>();
    body.get("data").get("result").forEach(series::add);
    return series;
  }

  /** A few decisions of the real loop on a fake job, an applied rescale and a problem. */
  private static void populate(OperatorMetrics metrics) throws Exception {
    // 5 s before a minute ends: the decisions complete the history's next bucket with what the
    // job reads, as a running controller does; the forecast must hold across it.
    ManualClock clock =
        new ManualClock(Instant.now().truncatedTo(ChronoUnit.MINUTES).plusSeconds(55));
    FakeJob job =
        new FakeJob(
            "job",
            clock,
            300,
            List.of(
                new FluidJob.Stage("s", "Source: In", 0, 1),
                new FluidJob.Stage("p", "Parse", 0.0111, 1),
                new FluidJob.Stage("k", "Sink", 0.008, 0)));
    var listener = metrics.listenerFor("flink", "orders");
    ControlLoop loop =
        new ControlLoop(
            job,
            new JobScaler(
                new ScalingPolicy(
                    Ds2Options.fromMap(
                        Map.of(
                            "window",
                            "10s",
                            "warm-up",
                            "0s",
                            "sample-interval",
                            "1s",
                            "activation",
                            "1",
                            "forecast",
                            "advise",
                            "forecast-period",
                            "20m",
                            "forecast-bucket",
                            "1m"))),
                DemandScenario.measured(),
                Mode.ACT,
                job.pollInterval()),
            job,
            withHistory(clock.instant()),
            listener,
            clock::advance,
            clock);
    loop.run(() -> true, 3);
    listener.on(
        null,
        new ScalerEvent.Problem(ScalerEvent.Problem.Kind.SAMPLING_FAILED, "a test", Duration.ZERO));
    metrics.leading(true);
  }

  /**
   * A store holding four 20-minute "days" of demand at the source up to the minute before {@code
   * now}, at the day's low of 300/s now (what the job reads) and rising to 600/s: the loop
   * forecasts at once, as a restarted controller does. A history that disagreed with the job (600/s
   * now, as this test once had) is a broken pattern as soon as a minute of the job's 300/s is kept.
   */
  private static StateStore withHistory(Instant now) {
    Duration bucket = Duration.ofMinutes(1);
    long current = Math.floorDiv(now.toEpochMilli(), bucket.toMillis());
    double[] means = new double[80];
    for (int i = 0; i < means.length; i++) {
      long k = current - means.length + i;
      means[i] = 450 - 150 * Math.cos(2 * Math.PI * (k - current) / 20) + (i % 3) - 1;
    }
    StateStore store = StateStore.inMemory();
    store.save(
        new SavedState(
            Optional.empty(),
            KeyedHistory.empty(),
            new DemandHistory.Snapshot(
                bucket, Map.of("Source: In", new DemandHistory.Saved(current - 1, means)))));
    return store;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
