package io.ds2.workloads.nexmark;

import io.ds2.workloads.CostDebt;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.util.Collector;

/**
 * The Nexmark queries' per-record work, each paying a controlled cost per record (a sleep, see
 * {@link CostDebt}) so that capacity is known in closed form.
 */
final class CostlyFunctions {
  private CostlyFunctions() {}

  /** A fixed cost per call, paid through a {@link CostDebt}. */
  static final class Cost implements java.io.Serializable {
    private final long nanos;
    private final CostDebt debt = new CostDebt();

    Cost(double ms) {
      this.nanos = Math.round(ms * 1e6);
    }

    void pay() {
      debt.pay(nanos);
    }
  }

  /** Q1: a bid's price converted from dollars to euros. */
  static final class Currency implements MapFunction<Event, Event> {
    private final Cost cost;

    Currency(double costMs) {
      this.cost = new Cost(costMs);
    }

    @Override
    public Event map(Event bid) {
      cost.pay();
      bid.price = bid.price * 908 / 1000;
      return bid;
    }
  }

  /** Q2: bids on every 123rd auction. */
  static final class AuctionFilter implements FilterFunction<Event> {
    private final Cost cost;

    AuctionFilter(double costMs) {
      this.cost = new Cost(costMs);
    }

    @Override
    public boolean filter(Event bid) {
      cost.pay();
      return bid.id % 123 == 0;
    }
  }

  /**
   * A count per key and window. Flink adds a record once per window it belongs to, so the cost is
   * split over {@code windowsPerRecord} (2 for a 10 s window sliding by 5 s).
   */
  static final class Count implements AggregateFunction<Event, Long, Long> {
    private final Cost cost;

    Count(double costMs, int windowsPerRecord) {
      this.cost = new Cost(costMs / windowsPerRecord);
    }

    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(Event value, Long count) {
      cost.pay();
      return count + 1;
    }

    @Override
    public Long getResult(Long count) {
      return count;
    }

    @Override
    public Long merge(Long a, Long b) {
      return a + b;
    }
  }

  /**
   * Q8's window join, incremental: per person id and window, whether the person registered and how
   * many auctions they opened; the result is that count if they did (new users who sold at once).
   */
  static final class NewSellers implements AggregateFunction<Event, long[], Long> {
    private final Cost cost;

    NewSellers(double costMs) {
      this.cost = new Cost(costMs);
    }

    @Override
    public long[] createAccumulator() {
      return new long[2];
    }

    @Override
    public long[] add(Event e, long[] acc) {
      cost.pay();
      if (e.isPerson()) {
        acc[0] = 1;
      } else {
        acc[1]++;
      }
      return acc;
    }

    @Override
    public Long getResult(long[] acc) {
      return acc[0] == 1 ? acc[1] : 0L;
    }

    @Override
    public long[] merge(long[] a, long[] b) {
      return new long[] {Math.max(a[0], b[0]), a[1] + b[1]};
    }
  }

  /** A sink that reads and drops (its own vertex, so its rate is measured too). */
  static final class Discard<T> implements FlatMapFunction<T, Void> {
    @Override
    public void flatMap(T value, Collector<Void> out) {}
  }
}
