package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ds2.workloads.SampleJobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A run judged from the second a learnt load may be acted on, and only from then. */
class StretchTest {
  private static Scenario scenario(double learnedFrom) {
    return new Scenario(
        "t",
        "steady",
        SampleJobs.ordersAndPayments(),
        List.of(new Scenario.Phase(0, 1)),
        Duration.ofSeconds(600),
        12,
        learnedFrom);
  }

  /**
   * Behind (lag growing 35/s, 5 % of 700/s) for 100 s before 300 and the last 100 s; below the
   * oracle (at parallelism 1) until 400, at it from then.
   */
  private static List<Saso.Point> points() {
    Map<String, Integer> oracle = scenario(300).oracle(0);
    Map<String, Integer> ones = new HashMap<>();
    oracle.keySet().forEach(v -> ones.put(v, 1));
    List<Saso.Point> points = new ArrayList<>();
    double lag = 0;
    for (int t = 0; t <= 600; t++) {
      boolean growing = (t > 200 && t <= 300) || t > 500;
      lag += growing ? 35 : 0;
      points.add(new Saso.Point(t, 0, t < 400 ? ones : oracle, t < 300 ? 2 : 4, lag));
    }
    return points;
  }

  @Test
  void onlyWhatHappensFromTheLearntSecondOnCounts() {
    Stretch s =
        Stretch.learned(scenario(300), points(), List.of(), Set.of(), List.of(150.0, 320.0));
    assertEquals(300, s.fromSeconds());
    assertEquals(300, s.sloJudgedSeconds(), 1e-9); // 300 .. 600
    // The growth before 300 still shows in the trailing minute's trend for a while, then the last
    // 100 s (about 18 s in before the trend passes 1 %).
    double wholeRun =
        LagSlo.overRun(points(), List.of(), Set.of(), scenario(300), 0).behindSeconds();
    assertEquals(wholeRun - s.sloBehindSeconds(), 100, 25);
    assertEquals(4 * 300, s.slotSeconds(), 1e-9);
    assertEquals(1, s.rescales());
    assertEquals(35 * 200, s.peakLag(), 1e-9);
    assertEquals(100, s.underProvisionedSeconds(), 1e-9); // 300 .. 400
  }

  @Test
  void aScenarioWithNothingToLearnHasNoStretch() {
    assertNull(Stretch.learned(scenario(0), points(), List.of(), Set.of(), List.of()));
  }
}
