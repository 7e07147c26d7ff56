package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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

  /**
   * The runs on the jobs as written come with the seconds behind and the cost at each controller's
   * target; each set's autoscaler logs and plots are named from its own directory.
   */
  @Test
  void eachSetNamesItsOwnFilesAndOnlyTheCurrentOneShowsTheSlo() throws Exception {
    StringBuilder current = new StringBuilder();
    LongRunsSection.render(current, Path.of("results", "long-runs-defaults"));
    StringBuilder earlier = new StringBuilder();
    LongRunsSection.renderEarlier(earlier, Path.of("results", "long-runs"));

    String now = current.toString();
    assertTrue(now.contains("| scenario | controller | behind / judged (s) |"), now);
    assertTrue(now.contains("| fanin-long | flink-as-1.10 | 3: steps 1-1,"), now);
    assertTrue(now.contains("`results/long-runs-defaults/fanin-long__flink-as-1.10.log`"), now);
    assertTrue(
        now.contains("(results/long-runs-defaults/nexmark-q5-long__ds2-defaults-u0.7.png)"), now);
    assertFalse(now.contains("results/long-runs/"), now);

    String then = earlier.toString();
    assertTrue(then.startsWith("### Earlier: long runs at documented settings"), then);
    assertTrue(then.contains("`results/long-runs/fanin-long__flink-as-1.10.log`"), then);
    assertFalse(then.contains("behind / judged"), then);
    assertFalse(then.contains("long-runs-defaults"), then);
  }
}
