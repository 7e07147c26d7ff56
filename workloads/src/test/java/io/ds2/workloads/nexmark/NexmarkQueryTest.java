package io.ds2.workloads.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ds2.workloads.nexmark.NexmarkQuery.Query;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NexmarkQueryTest {
  @Test
  void theOracleIsTheCeilingOfLoadAndTheSinkNeedsOne() {
    NexmarkQuery q1 = new NexmarkQuery(Query.Q1, 1_550, 10, 8);
    assertEquals(Map.of("Q1 Currency", 16, "Sink", 1), q1.oracle(1));
    assertEquals(Map.of("Q1 Currency", 31, "Sink", 1), q1.oracle(2));
    // The source runs at the main operator's rate over the bids' share of events (46 / 50).
    assertEquals(1_550 / 0.92, q1.baseRate(), 1e-9);
    assertEquals(1_550 / 0.022, new NexmarkQuery(Query.Q3, 1_550, 1, 8).baseRate(), 1e-6);
  }

  @Test
  void aHotKeyRaisesTheOracleOfKeyedBidOperatorsOnly() {
    // Load 4.5 with 10 % on one key: p >= 4.5 x 0.9 / (1 - 0.45) = 7.36.
    NexmarkQuery q5 = new NexmarkQuery(Query.Q5, 450, 10, 2).withHotShare(0.1);
    assertEquals(8, q5.oracle(1).get("Q5 Sliding Count"));
    assertEquals(
        5, new NexmarkQuery(Query.Q1, 450, 10, 2).withHotShare(0.1).oracle(1).get("Q1 Currency"));
    // Half the load on one key is more than one instance can take at any parallelism.
    assertThrows(
        IllegalStateException.class,
        () -> new NexmarkQuery(Query.Q11, 450, 10, 2).withHotShare(0.25).oracle(1));
  }
}
