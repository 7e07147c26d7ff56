package io.ds2.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A difference is claimed only between ranges that do not overlap, from three runs each. */
class PeerComparisonTest {
  @Test
  void rangesThatDoNotOverlapSayWhichIsLower() {
    assertEquals(
        "ds2 lower",
        PeerComparison.verdict(new double[] {117, 90, 130}, new double[] {652, 600, 700}, "ds2"));
    assertEquals(
        "ds2 higher",
        PeerComparison.verdict(new double[] {2, 3, 3}, new double[] {1, 1, 1}, "ds2"));
  }

  @Test
  void overlappingRangesAreNoDifferenceAndFewRunsAreNotCompared() {
    assertEquals(
        "no difference",
        PeerComparison.verdict(
            new double[] {1.01, 1.05, 1.12}, new double[] {1.10, 1.20, 1.30}, "ds2"));
    assertEquals(
        "not compared (fewer than 3 runs)",
        PeerComparison.verdict(new double[] {1.0}, new double[] {2.0, 2.1, 2.2}, "ds2"));
  }

  @Test
  void theMedianAndItsRangeAreShown() {
    assertEquals(
        "1.05 (1.01–1.12)", PeerComparison.spread(new double[] {1.12, 1.01, 1.05}, "%.2f"));
    assertEquals("117", PeerComparison.spread(new double[] {117}, "%.0f"));
  }
}
