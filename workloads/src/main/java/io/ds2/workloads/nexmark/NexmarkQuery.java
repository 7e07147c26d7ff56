package io.ds2.workloads.nexmark;

import io.ds2.workloads.KeyedOracle;
import io.ds2.workloads.Workload;
import io.ds2.workloads.source.RateSchedule;
import io.ds2.workloads.source.RateSource;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.ProcessingTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.SlidingProcessingTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingProcessingTimeWindows;

/**
 * A Nexmark query as a DataStream job: one generator source (the kinds the query reads are filtered
 * in the source's chain), the query's main operator with a controlled per-record cost, and a sink.
 * Windows run on processing time (the generator emits on schedule, so processing time is event time
 * here, and no watermark can stall a window).
 *
 * @param mainInputRate records/s reaching the main operator at the base rate; the source runs at
 *     this divided by the query's share of events
 * @param costMs the main operator's cost per record
 * @param parallelism the main operator's initial parallelism
 * @param hotShare share of bids on one hot key (Q5 auction, Q11 bidder); 0 for uniform keys
 */
public record NexmarkQuery(
    Query query,
    double mainInputRate,
    double costMs,
    int parallelism,
    int sourceParallelism,
    double hotShare,
    String rateControl)
    implements Workload {
  static final String SINK = "Sink";
  private static final long SEED = 42;

  /** The queries, their main operator's vertex name and the share of events it reads. */
  public enum Query {
    Q1("Q1 Currency", NexmarkGenerator.share(Event.BID)),
    Q2("Q2 Filter", NexmarkGenerator.share(Event.BID)),
    // Persons in OR/ID/CA (3 of 6 states) and auctions in category 10 (1 of 5).
    Q3(
        "Q3 Join",
        NexmarkGenerator.share(Event.PERSON) * 0.5 + NexmarkGenerator.share(Event.AUCTION) / 5),
    Q5("Q5 Sliding Count", NexmarkGenerator.share(Event.BID)),
    Q8(
        "Q8 Window Join",
        NexmarkGenerator.share(Event.PERSON) + NexmarkGenerator.share(Event.AUCTION)),
    Q11("Q11 Sessions", NexmarkGenerator.share(Event.BID));

    final String operator;
    final double inputShare;

    Query(String operator, double inputShare) {
      this.operator = operator;
      this.inputShare = inputShare;
    }

    public String operator() {
      return operator;
    }
  }

  public NexmarkQuery(Query query, double mainInputRate, double costMs, int parallelism) {
    this(query, mainInputRate, costMs, parallelism, 2, 0, "");
  }

  @Override
  public String name() {
    return "nexmark-" + query.name().toLowerCase(java.util.Locale.ROOT);
  }

  @Override
  public NexmarkQuery withRateControl(String key) {
    return new NexmarkQuery(
        query, mainInputRate, costMs, parallelism, sourceParallelism, hotShare, key);
  }

  public NexmarkQuery withHotShare(double share) {
    return new NexmarkQuery(
        query, mainInputRate, costMs, parallelism, sourceParallelism, share, rateControl);
  }

  @Override
  public double baseRate() {
    return mainInputRate / query.inputShare;
  }

  @Override
  public int sourceParallelism() {
    return sourceParallelism;
  }

  /**
   * The main operator needs the smallest p at which its busiest subtask keeps up ({@link
   * KeyedOracle}): for the keyed queries, the key groups Flink assigns each subtask carry the hot
   * key's share (Q5, Q11: all in the hot key's group) plus an even share of the rest (ids drawn
   * from a million recent ones hash evenly over 128 key groups); the sink costs nothing and needs
   * 1.
   */
  @Override
  public Map<String, Integer> oracle(double rateFactor) {
    double load = mainInputRate * rateFactor * costMs / 1000;
    int m = KeyedOracle.defaultMaxParallelism(parallelism);
    double[] shares = null;
    if (keyed()) {
      double hot = keyedOnBids() ? hotShare : 0;
      if (load * hot >= KeyedOracle.KEEPS_UP_BUSY) {
        throw new IllegalStateException(query + ": the hot key alone exceeds one instance");
      }
      shares = new double[m];
      java.util.Arrays.fill(shares, (1 - hot) / m);
      shares[KeyGroupRangeAssignment.assignToKeyGroup(NexmarkGenerator.HOT_KEY, m)] += hot;
    }
    Map<String, Integer> oracle = new LinkedHashMap<>();
    oracle.put(query.operator, KeyedOracle.smallestKeepingUp(load, 0, shares, m));
    oracle.put(SINK, 1);
    return oracle;
  }

  private boolean keyed() {
    return query == Query.Q3 || query == Query.Q5 || query == Query.Q8 || query == Query.Q11;
  }

  private boolean keyedOnBids() {
    return query == Query.Q5 || query == Query.Q11;
  }

  @Override
  public void build(StreamExecutionEnvironment env) {
    NexmarkGenerator generator = new NexmarkGenerator(hotShare, SEED);
    DataStream<Event> events =
        env.fromSource(
                new RateSource(RateSchedule.constant(baseRate()), rateControl),
                WatermarkStrategy.noWatermarks(),
                "Events")
            .uid("source-events")
            .setParallelism(sourceParallelism)
            .map(generator::event)
            .returns(Event.class)
            .name("Generate")
            .uid("generate")
            .setParallelism(sourceParallelism)
            .filter(reads())
            .name("Read")
            .uid("read")
            .setParallelism(sourceParallelism);
    SingleOutputStreamOperator<?> main = mainOperator(events);
    main.name(query.operator).uid("main").setParallelism(parallelism).disableChaining();
    main.flatMap(new CostlyFunctions.Discard<>())
        .name(SINK)
        .uid("sink")
        .setParallelism(1)
        .disableChaining();
  }

  /** A person's id, an auction's seller: the key of the person-auction joins. */
  private static long seller(Event e) {
    return e.isPerson() ? e.id : e.person;
  }

  private FilterFunction<Event> reads() {
    return switch (query) {
      case Q1, Q2, Q5, Q11 -> Event::isBid;
      case Q3 ->
          e ->
              (e.isPerson()
                      && (e.state.equals("OR") || e.state.equals("ID") || e.state.equals("CA")))
                  || (e.isAuction() && e.category == 10);
      case Q8 -> e -> e.isPerson() || e.isAuction();
    };
  }

  private SingleOutputStreamOperator<?> mainOperator(DataStream<Event> in) {
    return switch (query) {
      case Q1 -> in.map(new CostlyFunctions.Currency(costMs));
      case Q2 -> in.filter(new CostlyFunctions.AuctionFilter(costMs));
      case Q3 -> in.keyBy(NexmarkQuery::seller, Types.LONG).process(new IncrementalJoin(costMs));
      case Q5 ->
          in.keyBy(e -> e.id, Types.LONG)
              .window(
                  SlidingProcessingTimeWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(5)))
              .aggregate(new CostlyFunctions.Count(costMs, 2));
      case Q8 ->
          in.keyBy(NexmarkQuery::seller, Types.LONG)
              .window(TumblingProcessingTimeWindows.of(Duration.ofSeconds(10)))
              .aggregate(new CostlyFunctions.NewSellers(costMs));
      case Q11 ->
          in.keyBy(e -> e.person, Types.LONG)
              .window(ProcessingTimeSessionWindows.withGap(Duration.ofSeconds(10)))
              .aggregate(new CostlyFunctions.Count(costMs, 1));
    };
  }
}
