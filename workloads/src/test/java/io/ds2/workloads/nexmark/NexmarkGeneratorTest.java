package io.ds2.workloads.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NexmarkGeneratorTest {
  @Test
  void kindsFollowNexmarksProportionsExactly() {
    NexmarkGenerator g = new NexmarkGenerator(0, 1);
    int[] kinds = new int[3];
    for (long n = 0; n < 50_000; n++) {
      kinds[g.event(n).kind]++;
    }
    assertEquals(1_000, kinds[Event.PERSON]);
    assertEquals(3_000, kinds[Event.AUCTION]);
    assertEquals(46_000, kinds[Event.BID]);
  }

  @Test
  void theFieldsQueriesFilterOnGiveExactSelectivities() {
    NexmarkGenerator g = new NexmarkGenerator(0, 1);
    int q3Persons = 0;
    int q3Auctions = 0;
    for (long n = 0; n < 300_000; n++) {
      Event e = g.event(n);
      if (e.isPerson() && (e.state.equals("OR") || e.state.equals("ID") || e.state.equals("CA"))) {
        q3Persons++;
      }
      if (e.isAuction() && e.category == 10) {
        q3Auctions++;
      }
    }
    assertEquals(3_000, q3Persons); // half of 6,000 persons
    assertEquals(3_600, q3Auctions); // a fifth of 18,000 auctions
    assertEquals(6_600 / 300_000.0, NexmarkQuery.Query.Q3.inputShare, 1e-12);
  }

  @Test
  void eventsArePureFunctionsOfTheirNumber() {
    NexmarkGenerator a = new NexmarkGenerator(0.2, 7);
    NexmarkGenerator b = new NexmarkGenerator(0.2, 7);
    for (long n = 1_000; n < 1_100; n++) {
      Event x = a.event(n);
      Event y = b.event(n);
      assertEquals(x.kind, y.kind);
      assertEquals(x.id, y.id);
      assertEquals(x.person, y.person);
      assertEquals(x.price, y.price);
    }
  }

  @Test
  void uniformKeysSpreadOverManyIdsAndTheHotShareGoesToOneKey() {
    NexmarkGenerator uniform = new NexmarkGenerator(0, 1);
    Map<Long, Integer> perAuction = new HashMap<>();
    NexmarkGenerator skewed = new NexmarkGenerator(0.3, 1);
    int hot = 0;
    int bids = 0;
    for (long n = 0; n < 100_000; n++) {
      Event e = uniform.event(n);
      if (e.isBid()) {
        perAuction.merge(e.id, 1, Integer::sum);
      }
      Event s = skewed.event(n);
      if (s.isBid()) {
        bids++;
        hot += s.id == NexmarkGenerator.HOT_KEY ? 1 : 0;
      }
    }
    // 92,000 bids over a million recent ids: no auction gets more than a handful.
    assertTrue(perAuction.values().stream().mapToInt(Integer::intValue).max().orElse(0) <= 10);
    assertEquals(0.3, hot / (double) bids, 0.01);
    assertThrows(IllegalArgumentException.class, () -> new NexmarkGenerator(1, 1));
  }

  @Test
  void sellersAreLivePeopleAndNoneIsHotWhenTheRunStarts() {
    NexmarkGenerator g = new NexmarkGenerator(0, 1);
    Map<Long, Integer> perSeller = new HashMap<>();
    int auctions = 0;
    for (long n = 0; n < 50 * 2_000; n++) { // the first 2,000 epochs: fewer people than sellers
      Event e = g.event(n);
      if (e.isAuction()) {
        long epoch = n / NexmarkGenerator.TOTAL;
        assertTrue(e.person <= epoch && e.person > epoch - NexmarkGenerator.SELLERS, "" + e.person);
        assertTrue(e.person >= 0);
        perSeller.merge(e.person, 1, Integer::sum);
        auctions++;
      }
    }
    // 6,000 auctions over 2,000 people: person 0 sells about its share, not a sixth of them.
    int busiest = perSeller.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    assertTrue(busiest < 0.01 * auctions, "busiest seller sold " + busiest + " of " + auctions);
  }
}
