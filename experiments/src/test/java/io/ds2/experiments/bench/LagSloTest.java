package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LagSloTest {
  @Test
  void aLagGrowingFasterThanOnePercentOfDemandIsBehindAfterTheWarmUp() {
    // Demand 1,000/s; the lag grows 50/s (5 %) from 200 s on, and refreshes only every 10 s.
    List<Saso.Point> points = new ArrayList<>();
    for (int t = 0; t <= 400; t++) {
      double lag = t < 200 ? 100 : 100 + 50 * (10 * (t / 10) - 200);
      points.add(new Saso.Point(t, 0, Map.of(), 1, lag));
    }
    LagSlo.Verdict v = LagSlo.of(points, 0, 0, 400, 1000);
    assertEquals(280, v.judgedSeconds(), 1e-9); // 120 .. 400
    // Behind once the trailing minute's trend through the 10 s steps passes 10/s: from about 22 s
    // into the growth (the first step shows at 210 s) to the end.
    assertEquals(178, v.behindSeconds(), 5);
  }

  @Test
  void aSteadyOrDrainingLagAndNoisyStepsOfTheGaugeAreNotBehind() {
    List<Saso.Point> points = new ArrayList<>();
    for (int t = 0; t <= 400; t++) {
      double lag = Math.max(0, 5000 - 20 * t) + (t / 10 % 2 == 0 ? 8 : 0);
      points.add(new Saso.Point(t, 0, Map.of(), 1, lag));
    }
    assertEquals(0, LagSlo.of(points, 0, 0, 400, 1000).behindSeconds());
  }

  @Test
  void onlyThePhaseAskedForIsJudged() {
    List<Saso.Point> points = new ArrayList<>();
    for (int t = 0; t <= 300; t++) {
      points.add(new Saso.Point(t, t < 150 ? 0 : 1, Map.of(), 1, 100.0 * t));
    }
    LagSlo.Verdict first = LagSlo.of(points, 0, 0, 150, 1000);
    assertEquals(29, first.judgedSeconds(), 1e-9); // 120 .. 149
    assertEquals(29, first.behindSeconds(), 1e-9);
    assertEquals(30, LagSlo.of(points, 1, 150, 300, 1000).judgedSeconds(), 1e-9);
  }
}
