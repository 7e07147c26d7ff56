package io.ds2.workloads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.junit.jupiter.api.Test;

class KeyedOracleTest {
  @Test
  void theWordCountNeedsTheParallelismAtWhichItsBusiestKeyGroupRangeKeepsUp() {
    // Keys 0..4095 equally often at 128 key groups (14 to 47 keys each): at load 19.5 the
    // busiest subtask needs 1.22 instances at 20 and 1.06 at 24; at 25, 0.96.
    double[] shares = new KeyDistribution.Cyclic(4096).keyGroupShares(128);
    assertEquals(1, Arrays.stream(shares).sum(), 1e-12);
    assertEquals(25, KeyedOracle.smallestKeepingUp(19.5, 0, shares, 128));
    assertEquals(1.224, 19.5 * KeyedOracle.busiestShare(shares, 20), 1e-3);
    assertEquals(0.962, 19.5 * KeyedOracle.busiestShare(shares, 25), 1e-3);
    // The same load spread evenly: 20 (0.975 < 0.98).
    assertEquals(20, KeyedOracle.smallestKeepingUp(19.5, 0, null, 128));
  }

  @Test
  void aZipfWorkloadDefeatsBothTheEvenAndTheDivisorAnswer() {
    // 10,000 ids, exponent 0.8, load 6.5: even keys say 7 (busiest 1.14 instances), a divisor of
    // 128 says 8 (1.08); the smallest that keeps up is 9 (0.85).
    KeyDistribution.Zipf zipf = new KeyDistribution.Zipf(10_000, 0.8);
    double[] shares = zipf.keyGroupShares(128);
    assertEquals(1, Arrays.stream(shares).sum(), 1e-9);
    assertEquals(9, KeyedOracle.smallestKeepingUp(6.5, 0, shares, 128));
    assertTrue(6.5 * KeyedOracle.busiestShare(shares, 7) > 1.1);
    assertTrue(6.5 * KeyedOracle.busiestShare(shares, 8) > 1.05);
  }

  @Test
  void zipfKeysAreDrawnWithTheirPopularity() {
    KeyDistribution.Zipf zipf = new KeyDistribution.Zipf(1_000, 1.0);
    double[] w = zipf.weights();
    int n = 200_000;
    int[] count = new int[1_000];
    double[] groups = new double[128];
    for (long v = 0; v < n; v++) {
      long key = zipf.keyOf(v);
      assertTrue(key >= 1 && key <= 1_000, "id " + key);
      count[(int) key - 1]++;
      groups[KeyGroupRangeAssignment.assignToKeyGroup(key, 128)] += 1.0 / n;
    }
    // The most popular id: 13.4 % of the records (binomial sd 0.08 %).
    assertEquals(w[0], count[0] / (double) n, 0.004);
    assertEquals(w[1], count[1] / (double) n, 0.004);
    double[] expected = zipf.keyGroupShares(128);
    for (int g = 0; g < 128; g++) {
      assertEquals(expected[g], groups[g], 0.005, "key group " + g);
    }
    assertEquals(zipf.keyOf(12345), zipf.keyOf(12345), "a pure function of the value");
  }

  @Test
  void theSuitesJobsKeepTheirKeyedOraclesWhereTheSpreadAllows() {
    JobSpec fanIn =
        new JobSpec(
            "f",
            List.of(),
            List.of(
                new JobSpec.OperatorSpec("Join", List.of(), 3.35, 0.5, 1, true, 0),
                new JobSpec.OperatorSpec("Plain", List.of(), 3.35, 0.5, 1, false, 0)));
    assertEquals(128, fanIn.operators().get(0).maxParallelism());
    // Join at 3.69 (1,100/s x 3.35 ms): the busiest of 4 gets 1.04 x its share (0.96 instances).
    double[] shares = fanIn.operators().get(0).keys().keyGroupShares(128);
    assertEquals(4, KeyedOracle.smallestKeepingUp(3.685, 0, shares, 128));
    assertEquals(8, KeyedOracle.smallestKeepingUp(7.37, 0, shares, 128));
  }

  private static double[] even(int n) {
    double[] w = new double[n];
    Arrays.fill(w, 1.0 / n);
    return w;
  }

  @Test
  void aForwardInputFromElevenProducersSplitsByTheirRanges() {
    double t = 1e-12;
    assertArrayEquals(
        new double[] {2 / 11.0, 2 / 11.0, 2 / 11.0, 2 / 11.0, 3 / 11.0},
        KeyedOracle.pointwiseShares(even(11), 5),
        t);
    assertArrayEquals(new double[] {0.25, 0.25, 0.5}, KeyedOracle.pointwiseShares(even(2), 3), t);
  }

  @Test
  void theSmallestParallelismKeepingUpFollowsTheProducers() {
    // 4.5 instances of load behind 11 even producers: at 5 one consumer reads 3/11 (1.23
    // instances), at 6 the busiest reads 2/11 (0.82): 6, where an even input needs 5.
    assertEquals(5, KeyedOracle.smallestKeepingUp(4.5, 0, null, 128));
    assertEquals(6, KeyedOracle.smallestKeepingUpPointwise(4.5, 0, even(11), 128));
    // Behind 8 producers 4 reads pairs evenly: 4.5 / 4 = 1.125 > 0.98, so 5? At 5 consumers
    // read 1, 2, 1, 2, 2 producers: 2/8 x 4.5 = 1.125, still over; 6: 1,1,2,1,1,2 -> same;
    // 7: one pair, 1.125; 8: one each, 0.5625.
    assertEquals(8, KeyedOracle.smallestKeepingUpPointwise(4.5, 0, even(8), 128));
  }
}
