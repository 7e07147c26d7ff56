package io.ds2.workloads;

import io.ds2.workloads.kafka.KafkaInput;
import io.ds2.workloads.kafka.SequenceRecords;
import io.ds2.workloads.source.RateSchedule;
import io.ds2.workloads.source.RateSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A job with controlled per-record costs, and the closed-form oracle of the parallelism each
 * operator needs. Every source and operator becomes its own job vertex (chaining disabled) named as
 * given; sources are named {@code Source: <name>} by Flink.
 */
public record JobSpec(
    String name,
    List<SourceSpec> sources,
    List<OperatorSpec> operators,
    String rateControl,
    Optional<KafkaInput> kafka)
    implements Workload {

  public JobSpec(String name, List<SourceSpec> sources, List<OperatorSpec> operators) {
    this(name, sources, operators, "", Optional.empty());
  }

  public JobSpec(
      String name, List<SourceSpec> sources, List<OperatorSpec> operators, String rateControl) {
    this(name, sources, operators, rateControl, Optional.empty());
  }

  /**
   * The same job reading each source's records from its Kafka topic ({@link KafkaInput#topicOf}),
   * with checkpoints: a {@link io.ds2.workloads.kafka.KafkaRateProducer} writes the source's
   * schedule there.
   */
  public JobSpec withKafka(KafkaInput input) {
    return new JobSpec(name, sources, operators, rateControl, Optional.of(input));
  }

  /**
   * The same job with its sources' rates multiplied by the live {@link
   * io.ds2.workloads.source.RateControl} factor of {@code key}.
   */
  @Override
  public JobSpec withRateControl(String key) {
    return new JobSpec(name, sources, operators, key, kafka);
  }

  /**
   * A generator emitting {@code schedule}'s rate (records/s, whole vertex) on a wall-clock
   * schedule, reporting {@code pendingRecords} = scheduled - emitted.
   */
  public record SourceSpec(String name, RateSchedule schedule, int parallelism) {}

  /**
   * An operator reading the union of {@code inputs} (names of sources or earlier operators).
   *
   * @param costMs per-record cost in ms at parallelism 1
   * @param selectivity records emitted per record read
   * @param keyed whether the input is partitioned by key ({@code HASH} edge)
   * @param alpha sub-linear scaling: cost grows by {@code alpha} per extra instance
   * @param keys the key of each record when keyed (by default keys 0..4095 in turn)
   */
  public record OperatorSpec(
      String name,
      List<String> inputs,
      double costMs,
      double selectivity,
      int parallelism,
      boolean keyed,
      double alpha,
      KeyDistribution keys) {
    public OperatorSpec {
      keys = keyed && keys == null ? new KeyDistribution.Cyclic(4096) : keys;
    }

    public OperatorSpec(
        String name,
        List<String> inputs,
        double costMs,
        double selectivity,
        int parallelism,
        boolean keyed,
        double alpha) {
      this(name, inputs, costMs, selectivity, parallelism, keyed, alpha, null);
    }

    /** The vertex's max parallelism: Flink's default for the parallelism it starts at. */
    public int maxParallelism() {
      return KeyedOracle.defaultMaxParallelism(parallelism);
    }
  }

  /** Flink's name for the vertex of a source or operator of this spec. */
  public static String vertexName(String specName, boolean source) {
    return source ? "Source: " + specName : specName;
  }

  @Override
  public void build(StreamExecutionEnvironment env) {
    Map<String, DataStream<Long>> streams = new HashMap<>();
    kafka.ifPresent(k -> env.enableCheckpointing(k.checkpointInterval().toMillis()));
    for (SourceSpec s : sources) {
      DataStreamSource<Long> records =
          kafka.isPresent()
              ? env.fromSource(
                  kafkaSource(kafka.get(), s), WatermarkStrategy.noWatermarks(), s.name())
              : env.fromSource(
                  new RateSource(s.schedule(), rateControl),
                  WatermarkStrategy.noWatermarks(),
                  s.name());
      streams.put(s.name(), records.uid("source-" + s.name()).setParallelism(s.parallelism()));
    }
    for (OperatorSpec op : operators) {
      DataStream<Long> in = streams.get(op.inputs().get(0));
      for (String other : op.inputs().subList(1, op.inputs().size())) {
        in = in.union(streams.get(other));
      }
      CostlyOperator fn = new CostlyOperator(op.costMs(), op.selectivity(), op.alpha());
      KeyDistribution keys = op.keys();
      DataStream<Long> out =
          (op.keyed() ? in.keyBy(v -> keys.keyOf(v)).flatMap(fn) : in.flatMap(fn))
              .name(op.name())
              .uid("op-" + op.name())
              .setParallelism(op.parallelism())
              .disableChaining();
      streams.put(op.name(), out);
    }
  }

  // From the earliest offset on the first start; a restart resumes from the checkpoint.
  private KafkaSource<Long> kafkaSource(KafkaInput k, SourceSpec s) {
    return KafkaSource.<Long>builder()
        .setBootstrapServers(k.bootstrapServers())
        .setTopics(KafkaInput.topicOf(name, s.name()))
        .setGroupId(KafkaInput.topicOf(name, s.name()))
        .setStartingOffsets(OffsetsInitializer.earliest())
        .setValueOnlyDeserializer(new SequenceRecords.Deserializer())
        .setProperties(k.consumerProperties())
        .build();
  }

  /** The oracle at the sources' initial rates. */
  public Map<String, Integer> oracle() {
    return oracle(1.0);
  }

  /**
   * The smallest parallelism per operator vertex name that keeps up with the sources' initial rates
   * times {@code rateFactor}: the smallest p at which the busiest subtask, given the key groups
   * Flink assigns it and the operator's key distribution, is busy less than {@link
   * KeyedOracle#KEEPS_UP_BUSY} (r c (1 + alpha (p - 1)) x its share), every subtask an even share
   * for an unkeyed input.
   */
  @Override
  public Map<String, Integer> oracle(double rateFactor) {
    Map<String, Integer> result = new LinkedHashMap<>();
    // Each vertex's split of its output over its subtasks at its oracle parallelism.
    Map<String, double[]> split = new HashMap<>();
    sources.forEach(s -> split.put(s.name(), even(s.parallelism())));
    inputRates(rateFactor)
        .forEach(
            (name, in) -> {
              OperatorSpec op = operator(name);
              double load = in * op.costMs() / 1000;
              int m = op.maxParallelism();
              int p;
              if (op.keyed()) {
                double[] shares = op.keys().keyGroupShares(m);
                p = KeyedOracle.smallestKeepingUp(load, op.alpha(), shares, m);
                split.put(name, KeyedOracle.subtaskShares(shares, p));
              } else if (forward(op)) {
                double[] producers = split.get(op.inputs().get(0));
                p = KeyedOracle.smallestKeepingUpPointwise(load, op.alpha(), producers, m);
                split.put(name, KeyedOracle.pointwiseShares(producers, p));
              } else {
                p = KeyedOracle.smallestKeepingUp(load, op.alpha(), null, m);
                split.put(name, even(p));
              }
              result.put(vertexName(op.name(), false), p);
            });
    return result;
  }

  /**
   * Whether Flink connects the operator's input FORWARD: one unkeyed input from a vertex started at
   * the same parallelism (at another, Flink's default is REBALANCE). It stays FORWARD, and so
   * pointwise, when a rescale makes the parallelisms differ.
   */
  private boolean forward(OperatorSpec op) {
    if (op.keyed() || op.inputs().size() != 1) {
      return false;
    }
    String in = op.inputs().get(0);
    int upstream =
        sources.stream()
            .filter(s -> s.name().equals(in))
            .map(SourceSpec::parallelism)
            .findFirst()
            .orElseGet(() -> operator(in).parallelism());
    return upstream == op.parallelism();
  }

  private static double[] even(int n) {
    double[] w = new double[n];
    java.util.Arrays.fill(w, 1.0 / n);
    return w;
  }

  @Override
  public double baseRate() {
    return sources.stream().mapToDouble(s -> s.schedule().rateAt(0)).sum();
  }

  @Override
  public int sourceParallelism() {
    return sources.stream().mapToInt(SourceSpec::parallelism).max().orElse(1);
  }

  /** Input rate of every operator (by name) at the initial rates times {@code rateFactor}. */
  public Map<String, Double> inputRates(double rateFactor) {
    Map<String, Double> outRate = new HashMap<>();
    sources.forEach(s -> outRate.put(s.name(), s.schedule().rateAt(0) * rateFactor));
    Map<String, Double> result = new LinkedHashMap<>();
    for (OperatorSpec op : operators) {
      double in = op.inputs().stream().mapToDouble(outRate::get).sum();
      outRate.put(op.name(), in * op.selectivity());
      result.put(op.name(), in);
    }
    return result;
  }

  private OperatorSpec operator(String name) {
    return operators.stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
  }

  /** A copy with every operator's initial parallelism replaced. */
  public JobSpec withParallelism(Map<String, Integer> parallelism) {
    List<OperatorSpec> ops = new ArrayList<>();
    for (OperatorSpec op : operators) {
      ops.add(
          new OperatorSpec(
              op.name(),
              op.inputs(),
              op.costMs(),
              op.selectivity(),
              parallelism.getOrDefault(op.name(), op.parallelism()),
              op.keyed(),
              op.alpha(),
              op.keys()));
    }
    return new JobSpec(name, sources, ops, rateControl, kafka);
  }
}
