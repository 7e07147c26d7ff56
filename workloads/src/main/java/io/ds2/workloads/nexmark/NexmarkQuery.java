package io.ds2.workloads.nexmark;

import io.ds2.workloads.KeyedOracle;
import io.ds2.workloads.Workload;
import io.ds2.workloads.kafka.KafkaInput;
import io.ds2.workloads.source.RateSchedule;
import io.ds2.workloads.source.RateSource;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.ProcessingTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.SlidingProcessingTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingProcessingTimeWindows;

/**
 * A Nexmark query as a DataStream job, chained as Flink chains it: one generator source (the kinds
 * the query reads are filtered in the source's chain), the query's main operator with a controlled
 * per-record cost, and a sink chained to it. Windows run on processing time (the generator emits on
 * schedule, so processing time is event time here, and no watermark can stall a window).
 *
 * @param mainInputRate records/s reaching the main operator at the base rate; the source runs at
 *     this divided by the query's share of events
 * @param costMs the main operator's cost per record
 * @param parallelism the main operator's initial parallelism
 * @param hotShare share of bids on one hot key (Q5 auction, Q11 bidder); 0 for uniform keys
 * @param kafka where the events come from instead of the generator in the job, or null: a topic
 *     ({@link #EVENTS}) a producer writes the generator's events to ({@link EventRecords}), read by
 *     a checkpointed {@code KafkaSource}
 */
public record NexmarkQuery(
    Query query,
    double mainInputRate,
    double costMs,
    int parallelism,
    int sourceParallelism,
    double hotShare,
    String rateControl,
    KafkaInput kafka)
    implements Workload {
  static final String SINK = "Sink";

  /** The source's name, and with {@link KafkaInput#topicOf} its topic. */
  public static final String EVENTS = "Events";

  private static final long SEED = 42;

  /** The generator's splits, and the events topic's partitions: as many as teams pick. */
  public static final int SPLITS = 12;

  // Counting a minute of events takes a tenth of a second; scoring asks for each phase often.
  private static final Map<List<Object>, Map<String, Integer>> ORACLES = new ConcurrentHashMap<>();

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
    this(query, mainInputRate, costMs, parallelism, 2, 0, "", null);
  }

  @Override
  public String name() {
    return "nexmark-" + query.name().toLowerCase(java.util.Locale.ROOT);
  }

  @Override
  public NexmarkQuery withRateControl(String key) {
    return new NexmarkQuery(
        query, mainInputRate, costMs, parallelism, sourceParallelism, hotShare, key, kafka);
  }

  public NexmarkQuery withHotShare(double share) {
    return new NexmarkQuery(
        query, mainInputRate, costMs, parallelism, sourceParallelism, share, rateControl, kafka);
  }

  /** The same query reading its events from Kafka (see {@code kafka} above). */
  public NexmarkQuery withKafka(KafkaInput input) {
    return new NexmarkQuery(
        query, mainInputRate, costMs, parallelism, sourceParallelism, hotShare, rateControl, input);
  }

  /** The generator of the query's events (a pure function of the event number). */
  public NexmarkGenerator generator() {
    return new NexmarkGenerator(hotShare, SEED);
  }

  @Override
  public double baseRate() {
    return mainInputRate / query.inputShare;
  }

  @Override
  public int sourceParallelism() {
    return sourceParallelism;
  }

  /** The generator's (or the events topic's) splits, by the source's vertex name. */
  @Override
  public Map<String, Integer> sourceSplits() {
    return Map.of(sourceVertex(), SPLITS);
  }

  @Override
  public Map<String, Double> sourceRates() {
    return Map.of(sourceVertex(), baseRate());
  }

  /** The vertex that reads the events. */
  private String sourceVertex() {
    return mainVertex().startsWith("Source: ")
        ? mainVertex()
        : (kafka != null ? "Source: " + EVENTS : "Source: " + EVENTS + " -> Generate") + " -> Read";
  }

  /**
   * The oracle over the minute a Nexmark scenario's keeps-up verdict measures (40 s to 100 s of a
   * run at this rate).
   */
  @Override
  public Map<String, Integer> oracle(double rateFactor) {
    double eventsPerSecond = baseRate() * rateFactor;
    return oracle(rateFactor, 40 * eventsPerSecond, 100 * eventsPerSecond);
  }

  /**
   * The main operator's vertex (the sink chained to it costs nothing) needs the smallest p at which
   * its busiest subtask keeps up ({@link KeyedOracle}). The source's vertex is not in it: its cost
   * is the generator's own work, not a controlled one (the keeps-up verdict measures it). For the
   * keyed queries the spread over key groups is counted from the very events the generator makes in
   * the stretch, keyed and assigned as Flink does ({@link KeyGroupRangeAssignment}): Q3 and Q8 key
   * by person, and auctions' sellers are among the last thousand people, so about a thousand keys
   * are live at a time and their key groups differ by a third; bids' auctions and bidders come from
   * a million recent ids and spread within a few percent, plus the hot key where there is one.
   */
  @Override
  public Map<String, Integer> oracle(double rateFactor, double firstEvent, double lastEvent) {
    return ORACLES.computeIfAbsent(
        List.of(this, rateFactor, (long) firstEvent, (long) lastEvent),
        k -> computeOracle(rateFactor, (long) firstEvent, (long) lastEvent));
  }

  private Map<String, Integer> computeOracle(double rateFactor, long firstEvent, long lastEvent) {
    double load = mainInputRate * rateFactor * costMs / 1000;
    int m = KeyedOracle.defaultMaxParallelism(parallelism);
    double[] shares = keyed() ? keyGroupShares(m, firstEvent, lastEvent) : null;
    if (shares != null
        && load * Arrays.stream(shares).max().orElse(0) >= KeyedOracle.KEEPS_UP_BUSY) {
      throw new IllegalStateException(query + ": one key group alone exceeds one instance");
    }
    Map<String, Integer> oracle = new LinkedHashMap<>();
    boolean inSourceChain = mainVertex().startsWith("Source: ");
    oracle.put(
        mainVertex(),
        inSourceChain && kafka == null // a subtask without a generator split reads nothing
            ? KeyedOracle.smallestKeepingUpSplits(p -> load, SPLITS)
            : KeyedOracle.smallestKeepingUp(load, 0, shares, m));
    return Collections.unmodifiableMap(oracle);
  }

  /** The main operator's input per key group over events [first, last), as shares. */
  double[] keyGroupShares(int maxParallelism, long first, long last) {
    NexmarkGenerator generator = new NexmarkGenerator(hotShare, SEED);
    FilterFunction<Event> reads = reads();
    double[] shares = new double[maxParallelism];
    double total = 0;
    try {
      for (long n = Math.max(0, first); n < last; n++) {
        Event e = generator.event(n);
        if (reads.filter(e)) {
          shares[KeyGroupRangeAssignment.assignToKeyGroup(key(query, e), maxParallelism)]++;
          total++;
        }
      }
    } catch (Exception e) {
      throw new IllegalStateException(query + ": filter failed", e);
    }
    for (int g = 0; g < maxParallelism; g++) {
      shares[g] /= total;
    }
    return shares;
  }

  /** The key the main operator of {@code query} partitions by (its {@code keyBy}). */
  private static Long key(Query query, Event e) {
    return switch (query) {
      case Q3, Q8 -> seller(e);
      case Q5 -> e.id;
      case Q11 -> e.person;
      case Q1, Q2 -> throw new IllegalStateException(query + " is not keyed");
    };
  }

  private boolean keyed() {
    return query == Query.Q3 || query == Query.Q5 || query == Query.Q8 || query == Query.Q11;
  }

  @Override
  public void build(StreamExecutionEnvironment env) {
    DataStream<Event> generated;
    if (kafka != null) {
      env.enableCheckpointing(kafka.checkpointInterval().toMillis());
      generated =
          env.fromSource(kafkaSource(), WatermarkStrategy.noWatermarks(), EVENTS)
              .uid("source-events")
              .setParallelism(sourceParallelism);
    } else {
      NexmarkGenerator generator = generator();
      generated =
          env.fromSource(
                  new RateSource(RateSchedule.constant(baseRate()), rateControl, SPLITS),
                  WatermarkStrategy.noWatermarks(),
                  EVENTS)
              .uid("source-events")
              .setParallelism(sourceParallelism)
              .map(generator::event)
              .returns(Event.class)
              .name("Generate")
              .uid("generate")
              .setParallelism(sourceParallelism);
    }
    DataStream<Event> events =
        generated.filter(reads()).name("Read").uid("read").setParallelism(sourceParallelism);
    SingleOutputStreamOperator<?> main = mainOperator(events);
    main.name(query.operator).uid("main").setParallelism(parallelism);
    // As the Nexmark project writes its queries: the sink runs at the query's parallelism and
    // Flink chains it to the main operator.
    main.flatMap(new CostlyFunctions.Discard<>())
        .name(SINK)
        .uid("sink")
        .setParallelism(parallelism);
  }

  /**
   * Flink's name for the vertex holding the main operator: it chains the sink to it, and an unkeyed
   * main operator at the source's parallelism to the source's chain too.
   */
  public String mainVertex() {
    String main = query.operator + " -> " + SINK;
    if (!keyed() && parallelism == sourceParallelism) {
      return (kafka != null ? "Source: " + EVENTS : "Source: " + EVENTS + " -> Generate")
          + " -> Read -> "
          + main;
    }
    return main;
  }

  // From the earliest offset on the first start; a restart resumes from the checkpoint.
  private KafkaSource<Event> kafkaSource() {
    String topic = KafkaInput.topicOf(name(), EVENTS);
    return KafkaSource.<Event>builder()
        .setBootstrapServers(kafka.bootstrapServers())
        .setTopics(topic)
        .setGroupId(topic)
        .setStartingOffsets(OffsetsInitializer.earliest())
        .setValueOnlyDeserializer(new EventRecords.Deserializer())
        .setProperties(kafka.consumerProperties())
        .build();
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
    Query q = query; // the key selector captures the query, not this record
    return switch (query) {
      case Q1 -> in.map(new CostlyFunctions.Currency(costMs));
      case Q2 -> in.filter(new CostlyFunctions.AuctionFilter(costMs));
      case Q3 -> in.keyBy(e -> key(q, e), Types.LONG).process(new IncrementalJoin(costMs));
      case Q5 ->
          in.keyBy(e -> key(q, e), Types.LONG)
              .window(
                  SlidingProcessingTimeWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(5)))
              .aggregate(new CostlyFunctions.Count(costMs, 2));
      case Q8 ->
          in.keyBy(e -> key(q, e), Types.LONG)
              .window(TumblingProcessingTimeWindows.of(Duration.ofSeconds(10)))
              .aggregate(new CostlyFunctions.NewSellers(costMs));
      case Q11 ->
          in.keyBy(e -> key(q, e), Types.LONG)
              .window(ProcessingTimeSessionWindows.withGap(Duration.ofSeconds(10)))
              .aggregate(new CostlyFunctions.Count(costMs, 1));
    };
  }
}
