package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ds2.core.forecast.DemandHistory;
import io.ds2.testkit.FakeJob;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A demand history and rescale times kept on the resource are what a restarted controller (or a new
 * leader) forecasts from at once, as far ahead as the job's rescales take; a forecast above the
 * measured demand is a Kubernetes event.
 */
@EnableKubernetesMockClient(crud = true)
class DemandHistoryOnOperatorTest {
  private static final Duration BUCKET = Duration.ofMinutes(1);
  private static final int PERIOD = 20; // steps: a 20-minute "day"

  KubernetesMockServer server;
  KubernetesClient client;

  @Test
  void aSavedHistoryIsForecastFromAtOnceAndAForecastAboveTheMeasuredIsAnEvent() {
    // Four "days" up to the minute before now, at 300/s now (what the job reads) and rising its
    // fastest, to 500/s. A history at 600/s now would be a broken pattern (no forecast, no event)
    // once the operator kept a whole minute of the job's 300/s: a test started near a minute's end.
    long now = Math.floorDiv(Instant.now().toEpochMilli(), BUCKET.toMillis());
    double[] means = new double[4 * PERIOD];
    for (int i = 0; i < means.length; i++) {
      long k = now - means.length + i;
      means[i] = 300 + 200 * Math.sin(2 * Math.PI * (k - now) / PERIOD) + (i % 3) - 1;
    }
    String history =
        DemandHistoryAnnotation.write(
                new DemandHistory.Snapshot(
                    BUCKET, Map.of("Source: In", new DemandHistory.Saved(now - 1, means))),
                PERIOD,
                3 * PERIOD)
            .orElseThrow();
    OperatorTestSupport.registerKinds(server);
    OperatorTestSupport.create(
        client,
        "orders",
        Map.ofEntries(
            Map.entry(JobSettings.AUTOSCALING, "enabled"),
            Map.entry("ds2.io/window", "2s"),
            Map.entry("ds2.io/warm-up", "0s"),
            Map.entry("ds2.io/sample-interval", "200ms"),
            Map.entry("ds2.io/activation", "1"),
            Map.entry("ds2.io/forecast", "advise"),
            Map.entry("ds2.io/forecast-period", "20m"),
            Map.entry("ds2.io/forecast-bucket", "1m"),
            Map.entry(DemandHistoryAnnotation.KEY, history),
            // The job's last rescales took up to 120 s: the lead time, 122 s with the 2 s window.
            Map.entry(RescaleTimesAnnotation.KEY, "[40.5,120.0]")),
        Map.of(),
        Map.of());
    FakeJob job = OperatorTestSupport.fakeJob();
    try (Ds2Operator ds2 =
        OperatorTestSupport.operator(
            client,
            (r, settings, current, resource) ->
                new JobEnds.Opened(job, job, Optional.empty(), () -> {}))) {
      ds2.start();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> !OperatorTestSupport.events(client, "ForecastAhead").isEmpty());
    }
    List<Event> ahead = OperatorTestSupport.events(client, "ForecastAhead");
    String message = ahead.get(0).getMessage();
    assertTrue(message.startsWith("forecast: Source: In up to "), message);
    assertTrue(message.contains("(now 300.0/s)"), message);
    assertTrue(message.contains("would need") && message.contains("(advice only)"), message);
    assertTrue(message.contains("within 122 s"), message);
    assertTrue(
        OperatorTestSupport.events(client, "InvalidAnnotation").isEmpty(),
        "the history was read as written");
  }

  @Test
  void theHistoryIsWrittenOnceABucketInOnePatchAndWhatDoesNotFitIsAWarning() {
    OperatorTestSupport.registerKinds(server);
    OperatorTestSupport.create(client, "orders", Map.of(), Map.of(), Map.of());
    var resource =
        client
            .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
            .inNamespace(OperatorTestSupport.NS)
            .withName("orders");
    ResourceAnnotations annotations =
        new ResourceAnnotations(
            resource::get,
            resource,
            new EventRecorder(client, java.time.Clock.systemUTC(), Duration.ofMinutes(30)));
    double[] week = new double[7 * 288];
    java.util.Arrays.fill(week, 250);
    annotations.save(
        new io.ds2.core.scaler.SavedState(
            Optional.empty(),
            io.ds2.core.keyed.KeyedHistory.empty(),
            new DemandHistory.Snapshot(
                Duration.ofMinutes(5), Map.of("Source: In", new DemandHistory.Saved(100, week)))));
    annotations.flush();
    String written = resource.get().getMetadata().getAnnotations().get(DemandHistoryAnnotation.KEY);
    StateAnnotation.Read<DemandHistory.Snapshot> read =
        DemandHistoryAnnotation.read(Map.of(DemandHistoryAnnotation.KEY, written)).orElseThrow();
    DemandHistory.Snapshot back =
        read instanceof StateAnnotation.Restored<DemandHistory.Snapshot> ok
            ? ok.value()
            : fail(read.toString());
    assertEquals(100, back.sources().get("Source: In").newest());
    assertEquals(7 * 288, back.sources().get("Source: In").means().length);
    // Forty sources of two weeks do not fit even cut to three days: a Warning, nothing written.
    Map<String, DemandHistory.Saved> many = new java.util.LinkedHashMap<>();
    java.util.Random r = new java.util.Random(7);
    for (int s = 0; s < 40; s++) {
      double[] noisy = new double[14 * 288];
      for (int i = 0; i < noisy.length; i++) {
        noisy[i] = 300 + 50 * r.nextGaussian();
      }
      many.put("Source " + s, new DemandHistory.Saved(200, noisy));
    }
    annotations.save(
        new io.ds2.core.scaler.SavedState(
            Optional.empty(),
            io.ds2.core.keyed.KeyedHistory.empty(),
            new DemandHistory.Snapshot(Duration.ofMinutes(5), many)));
    annotations.flush();
    assertEquals(
        written,
        resource.get().getMetadata().getAnnotations().get(DemandHistoryAnnotation.KEY),
        "the last history that fit stays");
    List<Event> warned = OperatorTestSupport.events(client, "DemandHistoryNotKept");
    assertEquals(1, warned.size());
    assertTrue(warned.get(0).getMessage().contains("40 sources"), warned.get(0).getMessage());
  }
}
