package io.ds2.experiments.bench;

import io.ds2.workloads.JobSpec;
import io.ds2.workloads.JobSpec.SourceSpec;
import io.ds2.workloads.Workload;
import io.ds2.workloads.kafka.KafkaBroker;
import io.ds2.workloads.kafka.KafkaInput;
import io.ds2.workloads.kafka.KafkaRateProducer;
import io.ds2.workloads.kafka.SequenceRecords;
import io.ds2.workloads.nexmark.EventRecords;
import io.ds2.workloads.nexmark.NexmarkGenerator;
import io.ds2.workloads.nexmark.NexmarkQuery;
import io.ds2.workloads.source.RateSchedule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.LongFunction;

/**
 * A scenario fed from a real Kafka broker, as production jobs are: its own single-node broker, one
 * topic per source with as many partitions as the source has splits, a producer per source writing
 * the scenario's load schedule whether or not the job keeps up, and the job reading them with a
 * checkpointed {@code KafkaSource}, so a backlog built before a rescale must be drained after it
 * and shows as consumer lag.
 */
final class KafkaFeed implements AutoCloseable {
  /** Checkpoints this often: offsets survive every rescale, at most this much is read twice. */
  static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(3);

  private final KafkaBroker broker;
  private final Workload job;
  private final List<Input> inputs;
  private final List<KafkaRateProducer> producers = new ArrayList<>();

  /** One topic the job reads: its base schedule and what record n holds. */
  private record Input(
      String topic, RateSchedule base, LongFunction<byte[]> records, int partitions) {}

  private KafkaFeed(KafkaBroker broker, Workload job, List<Input> inputs) {
    this.broker = broker;
    this.job = job;
    this.inputs = inputs;
  }

  /**
   * Starts a broker under {@code dir} with a topic for every source of the scenario's job: each
   * source of a synthetic-source job (sequence records of {@value SequenceRecords#DEFAULT_BYTES}
   * bytes), or a Nexmark query's events (the generator's events, whole).
   */
  static KafkaFeed start(Scenario s, Path dir, ClusterSettings cluster) throws Exception {
    // Each source's topic has as many partitions as the source has splits (12 unless it says);
    // the broker's default is only for topics created otherwise.
    KafkaBroker broker = KafkaBroker.start(dir, JobSpec.DEFAULT_SPLITS);
    try {
      // At Flink's defaults the consumers are at Kafka's too (1 MiB fetches), as jobs are
      // written; the tuned bench's consumers fetch 4 KiB so that their lag is seconds fresh.
      KafkaInput input =
          cluster == ClusterSettings.FLINK_DEFAULTS
              ? KafkaInput.atKafkaDefaults(broker.bootstrapServers(), CHECKPOINT_INTERVAL)
              : new KafkaInput(broker.bootstrapServers(), CHECKPOINT_INTERVAL);
      List<Input> inputs = new ArrayList<>();
      Workload fed;
      if (s.job() instanceof JobSpec spec) {
        for (SourceSpec source : spec.sources()) {
          inputs.add(
              new Input(
                  KafkaInput.topicOf(spec.name(), source.name()),
                  source.schedule(),
                  n -> SequenceRecords.record(n, SequenceRecords.DEFAULT_BYTES),
                  source.splits()));
        }
        fed = spec.withKafka(input);
      } else if (s.job() instanceof NexmarkQuery q) {
        NexmarkGenerator generator = q.generator();
        inputs.add(
            new Input(
                KafkaInput.topicOf(q.name(), NexmarkQuery.EVENTS),
                RateSchedule.constant(q.baseRate()),
                n -> EventRecords.of(generator.event(n)),
                NexmarkQuery.SPLITS));
        fed = q.withKafka(input);
      } else {
        throw new IllegalArgumentException("scenario " + s.name() + " has no Kafka feed");
      }
      for (Input i : inputs) {
        broker.createTopic(i.topic(), i.partitions());
      }
      return new KafkaFeed(broker, fed, List.copyOf(inputs));
    } catch (Exception e) {
      broker.close();
      throw e;
    }
  }

  /** The job, reading its sources from the broker. */
  Workload job() {
    return job;
  }

  /** Starts writing every source's schedule under the scenario's load phases from now on. */
  void produce(Scenario s) {
    for (Input i : inputs) {
      producers.add(
          KafkaRateProducer.start(
              broker.bootstrapServers(),
              i.topic(),
              i.partitions(),
              schedule(s, i.base()),
              i.records()));
    }
  }

  /**
   * The source's base schedule times the scenario's load factor, second by second through a ramp
   * (as the synthetic sources follow it).
   */
  static RateSchedule schedule(Scenario s, RateSchedule base) {
    TreeSet<Double> changes = new TreeSet<>();
    base.phases().forEach(p -> changes.add(p.startSeconds()));
    for (Scenario.Phase p : s.phases()) {
      changes.add(p.atSeconds());
      for (int k = 1; k < p.rampSeconds(); k++) {
        changes.add(p.atSeconds() + k);
      }
    }
    List<RateSchedule.Phase> phases = new ArrayList<>();
    for (double t : changes) {
      phases.add(new RateSchedule.Phase(t, base.rateAt(t) * factorAt(s, t)));
    }
    return new RateSchedule(phases);
  }

  /**
   * The load factor at {@code t} seconds, stepping once a second through a ramp: {@code k/ramp} of
   * the way from the second {@code k-1} of the ramp on, as {@link ScenarioRun} steps the synthetic
   * sources.
   */
  static double factorAt(Scenario s, double t) {
    double factor = s.phases().get(0).factor();
    for (int i = 0; i < s.phases().size(); i++) {
      Scenario.Phase p = s.phases().get(i);
      if (p.atSeconds() > t) {
        break;
      }
      double from = i == 0 ? p.factor() : s.phases().get(i - 1).factor();
      double into = Math.floor(t - p.atSeconds());
      factor =
          into + 1 < p.rampSeconds()
              ? from + (p.factor() - from) * (into + 1) / p.rampSeconds()
              : p.factor();
    }
    return factor;
  }

  /** Records the producers are behind their schedules (see {@link KafkaRateProducer#behind}). */
  long behind() {
    long behind = 0;
    for (KafkaRateProducer p : producers) {
      behind += p.behind();
    }
    return behind;
  }

  @Override
  public void close() throws Exception {
    try {
      for (KafkaRateProducer p : producers) {
        p.close();
      }
    } finally {
      broker.close();
    }
  }
}
