package io.ds2.core.keyed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Flink's pointwise connection, from the examples its own code documents and ours. */
class PointwiseTest {
  private static final double EPS = 1e-12;

  @Test
  void fewerConsumersReadContiguousRangesOfProducers() {
    // 4 -> 2: the first two producers feed consumer 0, the last two consumer 1.
    assertArrayEquals(new double[] {0.5, 0.5}, Pointwise.shares(Pointwise.even(4), 2), EPS);
    // 11 -> 5: consumers read producers [0,2) [2,4) [4,6) [6,8) [8,11): the last one three.
    double[] s = Pointwise.shares(Pointwise.even(11), 5);
    assertArrayEquals(new double[] {2 / 11.0, 2 / 11.0, 2 / 11.0, 2 / 11.0, 3 / 11.0}, s, EPS);
    Pointwise.Busiest b = Pointwise.busiest(Pointwise.even(11), 5);
    assertEquals(4, b.subtask());
    assertEquals(8, b.firstProducer());
    assertEquals(10, b.lastProducer());
    assertEquals(3 / 11.0, b.share(), EPS);
  }

  @Test
  void moreConsumersShareTheirProducersOutputRoundRobin() {
    // 2 -> 3: producer 0 feeds consumers 0 and 1, producer 1 consumer 2 alone.
    assertArrayEquals(new double[] {0.25, 0.25, 0.5}, Pointwise.shares(Pointwise.even(2), 3), EPS);
    Pointwise.Busiest b = Pointwise.busiest(Pointwise.even(2), 3);
    assertEquals(2, b.subtask());
    assertEquals(1, b.firstProducer());
    assertEquals(1, b.lastProducer());
    // 5 -> 12: producers feed 3, 2, 3, 2, 2 consumers: the busiest takes 1/10, not 1/12.
    double[] s = Pointwise.shares(Pointwise.even(5), 12);
    assertEquals(0.1, Pointwise.busiest(Pointwise.even(5), 12).share(), EPS);
    double sum = 0;
    for (double x : s) {
      sum += x;
    }
    assertEquals(1, sum, EPS);
  }

  @Test
  void equalParallelismIsOneToOneAndCarriesTheProducersSplit() {
    double[] w = {0.4, 0.1, 0.3, 0.2};
    assertArrayEquals(w, Pointwise.shares(w, 4), EPS);
    // Halved: pairs of neighbours, so the two hot producers land on one consumer or not at all.
    assertArrayEquals(new double[] {0.5, 0.5}, Pointwise.shares(w, 2), EPS);
  }
}
