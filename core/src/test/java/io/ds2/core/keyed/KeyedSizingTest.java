package io.ds2.core.keyed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class KeyedSizingTest {
  @Test
  void rangesAreFlinksAssignment() {
    for (int m : new int[] {128, 130, 32768}) {
      for (int p : new int[] {1, 3, 20, 128}) {
        int next = 0;
        for (int i = 0; i < p; i++) {
          assertEquals(next, KeyGroups.first(i, m, p));
          for (int g = KeyGroups.first(i, m, p); g <= KeyGroups.last(i, m, p); g++) {
            assertEquals(i, KeyGroups.subtaskOf(g, m, p), "m=" + m + " p=" + p + " g=" + g);
          }
          next = KeyGroups.last(i, m, p) + 1;
        }
        assertEquals(m, next, "every key group owned once");
      }
    }
    // M=128 at p=20: subtasks own 6 or 7 key groups.
    assertEquals(7, KeyGroups.last(0, 128, 20) - KeyGroups.first(0, 128, 20) + 1);
    assertEquals(6, KeyGroups.last(1, 128, 20) - KeyGroups.first(1, 128, 20) + 1);
  }

  @Test
  void evenKeysStillNeedMoreThanDs2WhenTheRangesAreUneven() {
    // 19.5 instances of load over 128 equal key groups: DS2 says 20, but at 20 and 21 the busiest
    // subtask owns 7 groups (7/128 x 19.5 = 1.07 instances); at 22 it owns 6 (0.91).
    KeyedSizing.Result r = KeyedSizing.size(KeyGroupLoad.even(128), 1950, 100, 20, 128);
    assertEquals(22, r.parallelism());
    assertTrue(r.feasible());
    assertEquals(6, r.busiestLastKeyGroup() - r.busiestFirstKeyGroup() + 1);
  }

  @Test
  void aSaturatedSubtaskNeedsWhatTheOthersLeaveOfTheDemand() {
    // p=4 over 128 groups; subtask 3 is flat out at its capacity of 100/s, the others take 50/s.
    // The vertex must take 300/s: subtask 3's groups need 300 - 150 = 150/s, not the 100 it took.
    KeyGroupLoad load =
        estimate(128, new double[] {50, 50, 50, 100}, new double[] {0.5, 0.5, 0.5, 1.0}, 300);
    double hotRange = Arrays.stream(load.shares(), 96, 128).sum();
    assertEquals(0.5, hotRange, 1e-12);
    // DS2's bound is 3; at 4 and 5 the hot range still overloads one subtask; at 6 subtask 5
    // holds 21 of its groups (98.4/s) and subtask 4 the rest with 10 cooler ones (67.2/s).
    KeyGroupLoad known = new KeyGroupLoad(load.shares(), List.of(4)); // as if known group by group
    KeyedSizing.Result r = KeyedSizing.size(known, 300, 100, 3, 128);
    assertEquals(6, r.parallelism());
    assertEquals(5, r.busiestSubtask());
    assertEquals(98.4375, r.busiestLoad(), 1e-9);
    assertEquals(98.4375 / 50, r.busiestOverEven(300), 1e-9);
    // But the hot range was seen only whole: its 32 groups may differ (the ranges differ 3 : 1,
    // so single groups by at least as much; the variation is taken as 1). Taking 21 of them is
    // 98.4 +- 12.8/s (sd^2 = 21 x 11 / 31 x 4.69^2): not trusted. At 7, subtask 6 takes 18 of
    // them, 84.4 +- 13.4/s.
    assertEquals(1, load.groupVariation(), 1e-12);
    KeyedSizing.Result careful = KeyedSizing.size(load, 300, 100, 3, 128);
    assertEquals(7, careful.parallelism());
    assertEquals(6, careful.busiestSubtask());
    assertEquals(84.375, careful.busiestLoad(), 1e-9);
  }

  @Test
  void atAParallelismItRanAtWhatItMeasuredThereDecides() {
    // Seen evenly at 4 (older), then at 8 with pairs summing to 27/23/25/25 % (newer, noisier):
    // fitted, 4's subtask 0 would get 27 % (108/s of 400/s); measured there, 25 % (100/s).
    SubtaskShares at4 = new SubtaskShares(64, new double[] {0.25, 0.25, 0.25, 0.25}, 0.01);
    SubtaskShares at8 =
        new SubtaskShares(
            64, new double[] {0.135, 0.135, 0.115, 0.115, 0.125, 0.125, 0.125, 0.125}, 0.01);
    KeyGroupLoad load = KeyGroupLoad.combine(64, List.of(at8, at4));
    assertTrue(Arrays.stream(load.shares(), 0, 16).sum() > 0.26, "the fit follows the newest");
    KeyedSizing.Result r = KeyedSizing.size(load, 400, 101, 4, 64);
    assertEquals(4, r.parallelism());
    assertEquals(100, r.busiestLoad(), 1e-9);
  }

  @Test
  void aCandidateMadeOfWholeObservedRangesIsTrustedAsIs() {
    // Seen at 8 of 64 groups with the odd subtasks twice as loaded as the even ones: at 4 every
    // subtask takes two whole observed ranges (3/12 of the input each), with nothing unknown.
    double[] shares = {
      1 / 12.0, 2 / 12.0, 1 / 12.0, 2 / 12.0, 1 / 12.0, 2 / 12.0, 1 / 12.0, 2 / 12.0
    };
    KeyGroupLoad load = KeyGroupLoad.combine(64, List.of(new SubtaskShares(64, shares, 0.01)));
    assertTrue(load.groupVariation() > 0);
    KeyedSizing.Result r = KeyedSizing.size(load, 1200, 300, 4, 64);
    assertEquals(4, r.parallelism(), "300/s each, exactly the capacity, nothing unknown");
    assertEquals(300, r.busiestLoad(), 1e-9);
  }

  @Test
  void aKeyGroupHotterThanOneInstanceIsReportedNotClimbedFor() {
    double[] shares = new double[128];
    Arrays.fill(shares, 0.5 / 127);
    shares[40] = 0.5; // 150/s of 300/s in one key group, capacity 100/s
    KeyedSizing.Result r = KeyedSizing.size(new KeyGroupLoad(shares, List.of(4)), 300, 100, 3, 128);
    assertEquals(1, r.hot().size());
    assertEquals(40, r.hot().get(0).keyGroup());
    assertEquals(150, r.hot().get(0).load(), 1e-9);
    assertTrue(r.parallelism() <= 3, "sized for the rest: " + r.parallelism());
    assertTrue(r.feasible());
  }

  @Test
  void atParallelismOneNothingIsKnownAboutTheSpread() {
    KeyGroupLoad load = estimate(128, new double[] {90}, new double[] {1.0}, 400);
    assertTrue(load.assumedEven());
    assertEquals(List.of(1), load.observedAt());
    assertTrue(Arrays.equals(KeyGroupLoad.even(128).shares(), load.shares()));
    assertFalse(estimate(128, new double[] {1, 2}, new double[] {0.1, 0.2}, 3).assumedEven());
  }

  @Test
  void onceTheBuffersAreFullEveryChannelCarriesItsShareOfTheThrottledRate() {
    // The writer upstream is back-pressured: subtask 3 is flat out at 100/s and the others get
    // their shares of the throttled rate, so what they took are the shares (not demand - rest).
    SubtaskShares s =
        SubtaskShares.observe(
                128,
                new double[] {25, 25, 25, 100},
                new double[] {0.25, 0.25, 0.25, 1.0},
                700,
                true,
                0.01)
            .orElseThrow();
    assertEquals(100.0 / 175, s.shares()[3], 1e-12);
    SubtaskShares notYet =
        SubtaskShares.observe(
                128,
                new double[] {25, 25, 25, 100},
                new double[] {0.25, 0.25, 0.25, 1.0},
                700,
                false,
                0.01)
            .orElseThrow();
    assertEquals(625.0 / 700, notYet.shares()[3], 1e-12, "before: 700 - 75 queue for subtask 3");
  }

  @Test
  void twoParallelismsPinTheSpreadDownMoreFinelyThanEither() {
    // True load: key groups 0-15 of 64 carry half of the input, the rest spread evenly.
    int m = 64;
    double[] truth = new double[m];
    for (int g = 0; g < m; g++) {
      truth[g] = g < 16 ? 0.5 / 16 : 0.5 / 48;
    }
    SubtaskShares at3 = observed(truth, 3);
    SubtaskShares at5 = observed(truth, 5);
    KeyGroupLoad both = KeyGroupLoad.combine(m, List.of(at5, at3));
    assertTrue(both.misfit(at3) < 1e-6, "fits p=3: " + both.misfit(at3));
    assertTrue(both.misfit(at5) < 1e-6, "fits p=5: " + both.misfit(at5));
    double alone3 = distance(KeyGroupLoad.combine(m, List.of(at3)).shares(), truth);
    double alone5 = distance(KeyGroupLoad.combine(m, List.of(at5)).shares(), truth);
    double combined = distance(both.shares(), truth);
    assertTrue(
        combined < Math.min(alone3, alone5),
        "combined " + combined + " vs p=3 " + alone3 + ", p=5 " + alone5);
    assertEquals(List.of(5, 3), both.observedAt());
  }

  @Test
  void theHistoryForgetsWhatNoLongerFits() {
    int m = 64;
    double[] hotLeft = new double[m];
    double[] hotRight = new double[m];
    for (int g = 0; g < m; g++) {
      hotLeft[g] = g < 16 ? 0.5 / 16 : 0.5 / 48;
      hotRight[m - 1 - g] = hotLeft[g];
    }
    KeyedHistory h =
        KeyedHistory.empty().with("v", observed(hotLeft, 3)).with("v", observed(hotLeft, 5));
    assertEquals(2, h.of("v").size(), "both describe one spread");
    // The same parallelism again: averaged with the older one, not kept twice.
    assertEquals(2, h.with("v", observed(hotLeft, 5)).of("v").size());
    // The popularity moved to the other end: p=3 and p=5 contradict the newest; forgotten.
    KeyedHistory moved = h.with("v", observed(hotRight, 4));
    assertEquals(List.of(4), moved.of("v").stream().map(SubtaskShares::parallelism).toList());
    // The cost per record moved by more than a quarter: another job, start over.
    SubtaskShares slower =
        new SubtaskShares(
            m, observed(hotLeft, 4).shares(), observed(hotLeft, 4).costPerRecord() * 2);
    assertEquals(1, h.with("v", slower).of("v").size());
    // At most MAX_OBSERVATIONS parallelisms are kept, the newest.
    KeyedHistory many = KeyedHistory.empty();
    for (int p = 2; p <= 8; p++) {
      many = many.with("v", observed(hotLeft, p));
    }
    assertEquals(
        List.of(8, 7, 6, 5), many.of("v").stream().map(SubtaskShares::parallelism).toList());
    assertTrue(many.retainOnly(java.util.Set.of("w")::contains).of("v").isEmpty());
  }

  @Test
  void windowsAtOneParallelismAreAveragedUnlessTheyDisagree() {
    SubtaskShares a = new SubtaskShares(8, new double[] {0.26, 0.24, 0.25, 0.25}, 0.01, 1000);
    SubtaskShares b = new SubtaskShares(8, new double[] {0.24, 0.26, 0.25, 0.25}, 0.01, 1000);
    List<SubtaskShares> both = KeyedHistory.empty().with("v", a).observationsWith("v", b);
    assertEquals(1, both.size());
    assertEquals(0.25, both.get(0).shares()[0], 1e-12);
    assertEquals(2000, both.get(0).records(), 1e-12);
    // The older weighs at most 4 times the newest: a change shows within a few windows.
    SubtaskShares old = new SubtaskShares(8, new double[] {0.26, 0.24, 0.25, 0.25}, 0.01, 1e9);
    SubtaskShares merged = KeyedHistory.empty().with("v", old).observationsWith("v", b).get(0);
    assertEquals((0.26 * 4 + 0.24) / 5, merged.shares()[0], 1e-12);
    // Shares 10 % of an even share apart or more: the spread moved, the newest replaces.
    SubtaskShares moved = new SubtaskShares(8, new double[] {0.4, 0.2, 0.2, 0.2}, 0.01, 1000);
    assertEquals(List.of(moved), KeyedHistory.empty().with("v", a).observationsWith("v", moved));
  }

  private static SubtaskShares observed(double[] truth, int p) {
    int m = truth.length;
    double[] shares = new double[p];
    for (int g = 0; g < m; g++) {
      shares[KeyGroups.subtaskOf(g, m, p)] += truth[g];
    }
    return new SubtaskShares(m, shares, 0.01);
  }

  private static double distance(double[] a, double[] b) {
    double d = 0;
    for (int i = 0; i < a.length; i++) {
      d += Math.abs(a[i] - b[i]);
    }
    return d;
  }

  private static KeyGroupLoad estimate(int m, double[] rates, double[] busy, double demand) {
    return KeyGroupLoad.combine(
        m, List.of(SubtaskShares.observe(m, rates, busy, demand, false, 0.01).orElseThrow()));
  }

  /**
   * For random key-group loads the chosen p is feasible under the estimate and no smaller candidate
   * is, checked by assigning every key group to its subtask one by one.
   */
  @Property(tries = 300)
  void theChosenParallelismIsTheSmallestFeasibleOne(
      @ForAll @Size(min = 8, max = 64) List<@DoubleRange(min = 0, max = 1) Double> weights,
      @ForAll @DoubleRange(min = 1.5, max = 4) double zipf,
      @ForAll @IntRange(min = 1, max = 6) int lowerBound,
      @ForAll @DoubleRange(min = 10, max = 2000) double input) {
    int m = weights.size() * 2;
    double[] shares = new double[m];
    double sum = 0;
    for (int g = 0; g < m; g++) {
      shares[g] = weights.get(g % weights.size()) + 1 / Math.pow(g + 1, zipf);
      sum += shares[g];
    }
    for (int g = 0; g < m; g++) {
      shares[g] /= sum;
    }
    // No key group hotter than an instance (that case has its own test), so every try checks.
    double hottest = Arrays.stream(shares).max().orElse(0) * input;
    double capacity = Math.max(100, hottest * 1.01);
    KeyGroupLoad load = new KeyGroupLoad(shares, List.of(2));
    KeyedSizing.Result r = KeyedSizing.size(load, input, capacity, lowerBound, m);
    assertTrue(r.hot().isEmpty());
    assertTrue(r.feasible(), "p = m is always feasible without hot key groups");
    assertTrue(busiest(shares, input, m, r.parallelism()) <= capacity * (1 + 1e-9));
    for (int p = Math.max(1, Math.min(lowerBound, m)); p < r.parallelism(); p++) {
      assertTrue(busiest(shares, input, m, p) > capacity, "p=" + p + " was feasible already");
    }
  }

  private static double busiest(double[] shares, double input, int m, int p) {
    double[] perSubtask = new double[p];
    for (int g = 0; g < m; g++) {
      perSubtask[KeyGroups.subtaskOf(g, m, p)] += shares[g] * input;
    }
    return Arrays.stream(perSubtask).max().orElse(0);
  }
}
