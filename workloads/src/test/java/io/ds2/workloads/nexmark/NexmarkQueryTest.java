package io.ds2.workloads.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.workloads.KeyedOracle;
import io.ds2.workloads.nexmark.NexmarkQuery.Query;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NexmarkQueryTest {
  @Test
  void anUnkeyedOracleIsTheLoadWithTheOverheadMarginTheSinkChainedToIt() {
    NexmarkQuery q1 = new NexmarkQuery(Query.Q1, 1_550, 10, 8);
    assertEquals(Map.of("Q1 Currency -> Sink", 16), q1.oracle(1));
    // Load 31.0: 31 instances would be 100 % busy, which is not keeping up (< 98 %).
    assertEquals(Map.of("Q1 Currency -> Sink", 32), q1.oracle(2));
    // The source runs at the main operator's rate over the bids' share of events (46 / 50).
    assertEquals(1_550 / 0.92, q1.baseRate(), 1e-9);
    assertEquals(1_550 / 0.022, new NexmarkQuery(Query.Q3, 1_550, 1, 8).baseRate(), 1e-6);
  }

  @Test
  void aHotKeyRaisesTheOracleOfKeyedBidOperatorsOnly() {
    // Load 4.5 with 10 % on one key: p >= 4.5 x 0.9 / (1 - 0.45) = 7.36 with even key groups; at
    // 8 the hot key's subtask owns 16 of 128: 4.5 x (0.1 + 0.9 x 16 / 128) = 0.96 instances.
    NexmarkQuery q5 = new NexmarkQuery(Query.Q5, 450, 10, 2).withHotShare(0.1);
    assertEquals(8, q5.oracle(1).get("Q5 Sliding Count -> Sink"));
    // Q1 at the source's parallelism chains into the source: 4.5 over 12 generator splits needs 6
    // (2 splits each, 0.75), where 5 leaves a subtask 3 (1.13).
    assertEquals(
        6,
        new NexmarkQuery(Query.Q1, 450, 10, 2)
            .withHotShare(0.1)
            .oracle(1)
            .get("Source: Events -> Generate -> Read -> Q1 Currency -> Sink"));
    // Half the load on one key is more than one instance can take at any parallelism.
    assertThrows(
        IllegalStateException.class,
        () -> new NexmarkQuery(Query.Q11, 450, 10, 2).withHotShare(0.25).oracle(1));
  }

  @Test
  void keyedQueriesNeedTheirBusiestKeyGroupRangeToKeepUp() {
    // Q11 at load 27.5 (1,833.3/s x 15 ms): 28 would do with an even spread, but at 28 to 31 some
    // subtask owns 5 of the 128 key groups (27.5 x 5 / 128 = 1.07 instances); at 32 each owns 4.
    assertEquals(
        32, new NexmarkQuery(Query.Q11, 1_833.3, 15, 8).oracle(1).get("Q11 Sessions -> Sink"));
  }

  @Test
  void aJoinOnAThousandLiveSellersNeedsMoreThanAnEvenSpread() {
    // Q3 at load 19.5 (216.7/s x 90 ms): even key groups would need 22 (at 20 and 21 some subtask
    // owns 7 of 128 groups); counted from the generator's events, about a thousand live sellers
    // leave some subtask with a third more than its share until 24.
    NexmarkQuery q3 = new NexmarkQuery(Query.Q3, 216.7, 90, 8);
    double[] even = new double[128];
    java.util.Arrays.fill(even, 1.0 / 128);
    assertEquals(22, KeyedOracle.smallestKeepingUp(19.503, 0, even, 128));
    assertEquals(24, q3.oracle(1).get("Q3 Join -> Sink"));
    double rate = q3.baseRate();
    double[] counted = q3.keyGroupShares(128, (long) (40 * rate), (long) (100 * rate));
    assertEquals(1, java.util.Arrays.stream(counted).sum(), 1e-9);
    assertTrue(java.util.Arrays.stream(counted).max().orElse(0) > 1.3 / 128);
    // The same minute asked for twice is counted once and answers alike.
    assertEquals(q3.oracle(1), q3.oracle(1, 40 * rate, 100 * rate));
  }
}
