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
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A job with controlled per-record costs, written as users write jobs: operator chaining on
 * (Flink's default), so an operator joins its input's vertex when Flink would chain it (one unkeyed
 * input at the same parallelism), and sources read splits like a topic's partitions. Flink names a
 * chain's vertex by its operators ({@code Source: Orders -> Parse}); {@link #chains()} says which
 * vertices the job has. The closed-form oracle sizes every vertex, sources included, by its chained
 * costs and by how Flink spreads its input: key groups for a keyed head, splits for a source.
 *
 * @param chaining false only where a scenario states why its operators must not chain ({@link
 *     #unchained})
 */
public record JobSpec(
    String name,
    List<SourceSpec> sources,
    List<OperatorSpec> operators,
    String rateControl,
    Optional<KafkaInput> kafka,
    boolean chaining)
    implements Workload {

  /** Splits of a source that does not say: a topic's partition count as many teams pick it. */
  public static final int DEFAULT_SPLITS = 12;

  public JobSpec(String name, List<SourceSpec> sources, List<OperatorSpec> operators) {
    this(name, sources, operators, "", Optional.empty(), true);
  }

  public JobSpec(
      String name, List<SourceSpec> sources, List<OperatorSpec> operators, String rateControl) {
    this(name, sources, operators, rateControl, Optional.empty(), true);
  }

  /**
   * The same job reading each source's records from its Kafka topic ({@link KafkaInput#topicOf}, as
   * many partitions as the source has splits), with checkpoints: a {@link
   * io.ds2.workloads.kafka.KafkaRateProducer} writes the source's schedule there.
   */
  public JobSpec withKafka(KafkaInput input) {
    return new JobSpec(name, sources, operators, rateControl, Optional.of(input), chaining);
  }

  /**
   * The same job with every operator in a vertex of its own. Users' jobs chain; only a scenario
   * that must keep an operator apart from its input (and says why) uses this.
   *
   * @param why the scenario's reason, for the reader of its code
   */
  public JobSpec unchained(String why) {
    if (why == null || why.isBlank()) {
      throw new IllegalArgumentException("a job that must not chain says why");
    }
    return new JobSpec(name, sources, operators, rateControl, kafka, false);
  }

  /**
   * The same job with its sources' rates multiplied by the live {@link
   * io.ds2.workloads.source.RateControl} factor of {@code key}.
   */
  @Override
  public JobSpec withRateControl(String key) {
    return new JobSpec(name, sources, operators, key, kafka, chaining);
  }

  /**
   * A source emitting {@code schedule}'s rate (records/s, whole vertex) over {@code splits} even
   * splits (a generator's, or its Kafka topic's partitions), started at {@code parallelism}.
   */
  public record SourceSpec(String name, RateSchedule schedule, int parallelism, int splits) {
    public SourceSpec {
      if (splits < 1) {
        throw new IllegalArgumentException("source " + name + " needs at least one split");
      }
    }

    public SourceSpec(String name, RateSchedule schedule, int parallelism) {
      this(name, schedule, parallelism, DEFAULT_SPLITS);
    }
  }

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

  /** Flink's name for the operator of a source or operator of this spec. */
  public static String vertexName(String specName, boolean source) {
    return source ? "Source: " + specName : specName;
  }

  /** The job's vertices, sources' first, each a chain of operators (see {@link JobChains}). */
  public List<JobChains.Chain> chains() {
    return JobChains.of(this);
  }

  /** The name of the vertex holding source or operator {@code specName}. */
  public String vertexOf(String specName) {
    return chains().stream()
        .filter(c -> c.members().contains(specName))
        .map(JobChains.Chain::vertexName)
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no operator " + specName));
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
                  new RateSource(s.schedule(), rateControl, s.splits()),
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
      SingleOutputStreamOperator<Long> out =
          (op.keyed() ? in.keyBy(v -> keys.keyOf(v)).flatMap(fn) : in.flatMap(fn))
              .name(op.name())
              .uid("op-" + op.name())
              .setParallelism(op.parallelism());
      streams.put(op.name(), chaining ? out : out.disableChaining());
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
   * The smallest parallelism per vertex name that keeps up with the sources' initial rates times
   * {@code rateFactor}: the smallest p at which the busiest subtask is busy less than {@link
   * KeyedOracle#KEEPS_UP_BUSY} — the vertex's chained load (each operator's rate x cost x (1 +
   * alpha (p - 1)), summed along the chain) times the busiest subtask's share: by Flink's key
   * groups for a keyed head, by its splits for a source (never above them), even for a rebalanced
   * input, by its producer's subtasks for a pointwise one.
   */
  @Override
  public Map<String, Integer> oracle(double rateFactor) {
    return JobChains.oracle(this, rateFactor);
  }

  @Override
  public double baseRate() {
    return sources.stream().mapToDouble(s -> s.schedule().rateAt(0)).sum();
  }

  @Override
  public int sourceParallelism() {
    return sources.stream().mapToInt(SourceSpec::parallelism).max().orElse(1);
  }

  @Override
  public Map<String, Integer> sourceSplits() {
    Map<String, Integer> splits = new LinkedHashMap<>();
    sources.forEach(s -> splits.put(vertexOf(s.name()), s.splits()));
    return splits;
  }

  @Override
  public Map<String, Double> sourceRates() {
    Map<String, Double> rates = new LinkedHashMap<>();
    sources.forEach(s -> rates.put(vertexOf(s.name()), s.schedule().rateAt(0)));
    return rates;
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

  OperatorSpec operator(String name) {
    return operators.stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
  }

  Optional<SourceSpec> source(String name) {
    return sources.stream().filter(s -> s.name().equals(name)).findFirst();
  }

  /** A copy with the initial parallelism of the sources and operators named replaced. */
  public JobSpec withParallelism(Map<String, Integer> parallelism) {
    List<SourceSpec> srcs = new ArrayList<>();
    for (SourceSpec s : sources) {
      srcs.add(
          new SourceSpec(
              s.name(),
              s.schedule(),
              parallelism.getOrDefault(s.name(), s.parallelism()),
              s.splits()));
    }
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
    return new JobSpec(name, srcs, ops, rateControl, kafka, chaining);
  }
}
