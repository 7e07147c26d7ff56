package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
