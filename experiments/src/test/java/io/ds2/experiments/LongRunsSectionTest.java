package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LongRunsSectionTest {
  private static final String P = "org.apache.flink.autoscaler.";

  @Test
  void theDigestKeepsEachKindOfLineOnceAndEveryScalingReport() {
    List<LongRunsSection.Kind> kinds =
        LongRunsSection.digest(
            List.of(
                "2026-12-02T10:00:00.000+0000 INFO "
                    + P
                    + "ScalingMetricCollector - Stabilizing"
                    + " until 2026-12-02 10:05:00",
                "2026-12-02T10:00:10.000+0000 INFO "
                    + P
                    + "ScalingMetricCollector - Stabilizing"
                    + " until 2026-12-02 10:05:00",
                "java.lang.IllegalStateException: not a log line",
                "\tat org.example.Frame(Frame.java:1)",
                "2026-12-02T10:20:00.000+0000 INFO "
                    + P
                    + "event.LoggingEventHandler - reason :"
                    + " ScalingReport, message : Parallelism 1 -> 5",
                "2026-12-02T10:40:00.000+0000 INFO "
                    + P
                    + "event.LoggingEventHandler - reason :"
                    + " ScalingReport, message : Parallelism 5 -> 7"));
    assertEquals(3, kinds.size());
    LongRunsSection.Kind stabilizing = kinds.get(0);
    assertEquals(2, stabilizing.count);
    assertEquals(Duration.ofSeconds(10), stabilizing.last);
    assertEquals(
        "INFO ScalingMetricCollector: Stabilizing until 2026-12-02 10:05:00", stabilizing.quote);
    assertEquals(Duration.ofMinutes(20), kinds.get(1).first);
    assertEquals(Duration.ofMinutes(40), kinds.get(2).first);
    assertEquals(1, kinds.get(2).count);
  }
}
