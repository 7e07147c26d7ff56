package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.VertexDecision;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.SavedState;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.operator.EventRecorder.Reason;
import io.ds2.testkit.FluidJob;
import io.ds2.testkit.ManualClock;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * Events as Kubernetes counts them, written as the chart's service account to a real API server:
 * one event per resource, type and reason, its count and message following each occurrence.
 */
class EventsOnRealApiServerTest extends RealApiServerBase {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z"));

  @Test
  void aSecondRescaleWithinMinutesCountsTwiceAndAChangingMessageMakesNoNewWarning() {
    FluidJob job = job();
    GenericKubernetesResource r = deployment("counted", job, Map.of(), Map.of());
    KubernetesClient sa = chartServiceAccount();
    EventRecorder events = new EventRecorder(sa, clock, Duration.ofMinutes(30));
    events.normal(r, Reason.ScalingApplied, "Parse 1->4 applied after 12.0 s");
    clock.advance(Duration.ofSeconds(20));
    events.normal(r, Reason.ScalingApplied, "Parse 4->6 applied after 11.0 s");
    for (int i = 0; i < 5; i++) {
      clock.advance(Duration.ofSeconds(120));
      events.warning(r, Reason.MetricsNotReady, "NaN busy time of Parse at " + clock.instant());
    }
    List<Event> applied = events("counted", "ScalingApplied");
    assertEquals(1, applied.size(), applied.toString());
    assertEquals(2, applied.get(0).getCount());
    assertEquals("Parse 4->6 applied after 11.0 s", applied.get(0).getMessage());
    List<Event> notReady = events("counted", "MetricsNotReady");
    assertEquals(1, notReady.size(), notReady.toString());
    assertEquals(5, notReady.get(0).getCount());
    assertEquals("NaN busy time of Parse at " + clock.instant(), notReady.get(0).getMessage());
  }

  @Test
  void aRepeatOfTheSameMessageIsCountedAndWrittenAtMostOnceAMinute() {
    FluidJob job = job();
    GenericKubernetesResource r = deployment("repeated", job, Map.of(), Map.of());
    EventRecorder events = new EventRecorder(chartServiceAccount(), clock, Duration.ofMinutes(30));
    for (int i = 0; i < 6; i++) {
      events.warning(r, Reason.MetricsNotReady, "Flink did not answer");
      clock.advance(Duration.ofSeconds(10));
    }
    assertEquals(1, events("repeated", "MetricsNotReady").get(0).getCount(), "not written yet");
    clock.advance(Duration.ofSeconds(60));
    events.warning(r, Reason.MetricsNotReady, "Flink did not answer");
    assertEquals(7, events("repeated", "MetricsNotReady").get(0).getCount());
  }

  /**
   * A source whose Kafka lag gauge cannot show what arrives (1 MiB fetches read one partition after
   * another) is stepped up on what it read: the platform team gets a Warning naming the vertex and
   * the consumer setting, not only a line in the decision log.
   */
  @Test
  void aSourceSizedOnWhatItReadRaisesASourceLagHiddenWarning() {
    FluidJob job = job();
    GenericKubernetesResource r = deployment("hidden", job, Map.of(), Map.of());
    KubernetesClient sa = chartServiceAccount();
    EventRecorder events = new EventRecorder(sa, clock, Duration.ofMinutes(30));
    ResourceAnnotations annotations =
        new ResourceAnnotations(
            () -> r,
            sa.genericKubernetesResources(FlinkKinds.DEPLOYMENT).inNamespace(NS).withName("hidden"),
            events);
    String why =
        "its lag gauge stood still, then jumped: it cannot show what arrives;"
            + " sized for twice what it read (max.partition.fetch.bytes)";
    VertexDecision source =
        new VertexDecision(
            "src",
            "Source: Orders -> Parse",
            true,
            2,
            6,
            6,
            List.of(new io.ds2.core.estimate.Reason(ReasonCode.SOURCE_LAG_HIDDEN, why)));
    SourceDemand demand =
        new SourceDemand(
            "src",
            592,
            SourceDemand.Basis.BACKLOG_HIDDEN,
            296,
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            1,
            Optional.empty());
    Decision d =
        new Decision(
            clock.instant(),
            new Estimate(null, Map.of("src", demand), List.of(), 0.7, KeyedHistory.empty()),
            List.of(source),
            new Action.Rescale(Map.of("src", 6)));
    new EventingListener(() -> r, annotations, events)
        .on(null, new ScalerEvent.Decided(d, Mode.ACT));
    List<Event> hidden = events("hidden", "SourceLagHidden");
    assertEquals(1, hidden.size(), hidden.toString());
    assertEquals("Warning", hidden.get(0).getType());
    assertEquals("Source: Orders -> Parse: " + why, hidden.get(0).getMessage());
  }

  /**
   * A saved part of the job's state that ds2 did not write (edited by hand, cut short) is said once
   * as a Warning naming the annotation and what ds2 does without it, and ignored whole.
   */
  @Test
  void anUnreadableSavedStateIsAWarningNamingItsAnnotationAndIgnored() {
    KubernetesClient sa = chartServiceAccount();
    EventRecorder events = new EventRecorder(sa, clock, Duration.ofMinutes(30));
    Map<String, String> bad =
        Map.of(
            PolicyStateAnnotation.KEY, "{\"scaleDowns\":{\"v1\":{\"since\":\"yesterday\"}}}",
            KeyedHistoryAnnotation.KEY, "[]",
            DemandHistoryAnnotation.KEY, "{oops",
            RescaleTimesAnnotation.KEY, "[0]");
    int i = 0;
    for (Map.Entry<String, String> e : bad.entrySet()) {
      String name = "saved-" + i++;
      GenericKubernetesResource r =
          deployment(name, job(), Map.of(e.getKey(), e.getValue()), Map.of());
      SavedState loaded =
          new ResourceAnnotations(
                  () -> r,
                  sa.genericKubernetesResources(FlinkKinds.DEPLOYMENT)
                      .inNamespace(NS)
                      .withName(name),
                  events)
              .load();
      assertEquals(SavedState.EMPTY, loaded, e.getKey());
      List<Event> warned = events(name, "InvalidAnnotation");
      assertEquals(1, warned.size(), e.getKey());
      assertEquals("Warning", warned.get(0).getType());
      String message = warned.get(0).getMessage();
      assertTrue(message.startsWith("annotation " + e.getKey() + " is unreadable ("), message);
    }
  }
}
