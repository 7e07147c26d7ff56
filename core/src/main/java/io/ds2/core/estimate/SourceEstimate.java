package io.ds2.core.estimate;

import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.keyed.SplitLoad;
import io.ds2.core.keyed.SubtaskShares;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.split.KafkaAssignment;
import io.ds2.core.split.Split;
import io.ds2.core.split.SplitAssignment;
import io.ds2.core.split.SplitOwnership;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.SubtaskSample.Counter;
import io.ds2.core.window.VertexObservation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Sizes a source vertex like any other: its capacity per subtask is the records its source operator
 * reads per second of the task's busy time (which covers the operators chained to it; a FLIP-27
 * source's fetch threads are not counted, and waiting for data is idle), its demand the arrival
 * rate in records read ({@link DemandEstimator}), its output that times the chain's selectivity
 * (the tail's output per record read; 0 for a chain ending in a sink). A subtask's load is that of
 * the splits it reads, so from DS2's bound upward the smallest parallelism whose busiest subtask
 * keeps up is taken ({@link SplitLoad}), never above the number of splits: a subtask without a
 * split reads nothing.
 */
final class SourceEstimate {
  /** Busy fraction below which a subtask that read nothing counts as owning no split. */
  static final double IDLE_BUSY = 0.05;

  private SourceEstimate() {}

  /** What is known of a source's splits. */
  /**
   * @param alternatives how the splits may be assigned at a candidate parallelism (sizing takes the
   *     worst)
   * @param owners the subtask reading each split now, where known
   */
  private record Splits(
      SplitSpread.Basis basis, List<SplitAssignment> alternatives, Optional<int[]> owners) {
    int count() {
      return alternatives.isEmpty() ? 0 : alternatives.get(0).splits().size();
    }
  }

  /**
   * @param given the split count the user gave, if any
   * @param observed receives this window's observations of the source's spread over splits
   */
  static VertexEstimate size(
      Vertex v,
      VertexObservation obs,
      SourceDemand d,
      Ds2Options options,
      OptionalInt given,
      KeyedHistory history,
      Map<String, List<SubtaskShares>> observed) {
    List<Reason> reasons = new ArrayList<>();
    double demand = d.targetRate();
    // How the demand was read, where the gauge alone did not say it: for any source, scaled or not.
    DemandReasons.add(v, obs, d, reasons);
    OptionalDouble trueRate = obs.trueProcessingRatePerInstance();
    Optional<String> unusable = unusable(obs, demand, trueRate);
    if (unusable.isPresent()) {
      reasons.add(
          new Reason(
              ReasonCode.SOURCE_NOT_SCALED,
              unusable.get() + "; keeping its parallelism; demand " + RateModel.rate(demand)));
      return estimate(
          v,
          obs,
          d,
          trueRate,
          OptionalDouble.empty(),
          obs.parallelism(),
          reasons,
          Optional.empty());
    }
    if (obs.recordsIn() <= 0) { // nothing read, nothing arriving
      reasons.add(new Reason(ReasonCode.NO_DEMAND, "no input expected"));
      int p = ParallelismBounds.apply(v, 0, options, reasons);
      return estimate(v, obs, d, trueRate, OptionalDouble.of(0), p, reasons, Optional.empty());
    }
    double input = demand; // records the source must read
    double capacity = trueRate.getAsDouble() * options.targetUtilization();
    double required = input / capacity;
    int ds2 = ParallelismBounds.apply(v, required, options, reasons);
    Splits splits = splits(v, obs, given, history);
    if (splits.basis() == SplitSpread.Basis.UNKNOWN) {
      reasons.add(
          new Reason(
              ReasonCode.SOURCE_SPLITS_UNKNOWN,
              "how many splits "
                  + chain(v)
                  + " reads is not known (its reader names none in its metrics, and no subtask"
                  + " sat idle): sized as if its input spread evenly, with no cap;"
                  + " --source-splits (annotation ds2.io/source-splits) gives the count"));
      return estimate(
          v, obs, d, trueRate, OptionalDouble.of(required), ds2, reasons, Optional.empty());
    }
    int n = splits.count();
    List<SubtaskShares> known = observe(v, obs, d, splits, history);
    observed.put(v.id(), known);
    SplitLoad load = known.isEmpty() ? SplitLoad.even(n) : SplitLoad.combine(n, known);
    int upper =
        Math.min(
            n, Math.min(v.maxParallelism(), options.maxParallelism().orElse(Integer.MAX_VALUE)));
    int from = Math.min(ds2, upper);
    SplitLoad.Result chosen = load.size(splits.alternatives(), input, capacity, from, upper);
    SplitLoad.Result atDs2 =
        ds2 <= upper && chosen.parallelism() != ds2
            ? load.size(splits.alternatives(), input, capacity, ds2, ds2)
            : chosen;
    // Where the vertex already runs at the chosen parallelism, its busiest subtask is the chosen's.
    int current = obs.parallelism();
    SplitLoad.Result atCurrent =
        chosen.parallelism() == current
            ? chosen
            : load.size(splits.alternatives(), input, capacity, current, current);
    String what = describe(splits);
    if (upper < n && !chosen.feasible()) {
      // Held below the split count by a max parallelism, which ParallelismBounds may have named.
      if (reasons.stream().noneMatch(r -> r.code().name().startsWith("LIMITED_BY_"))) {
        reasons.add(
            new Reason(
                ReasonCode.LIMITED_BY_MAX_PARALLELISM_OPTION,
                "the busiest subtask keeps up at no parallelism up to "
                    + upper
                    + ": demand not sustainable"));
      }
    } else if (ds2 > n || !chosen.feasible()) {
      reasons.add(
          new Reason(
              ReasonCode.SOURCE_SPLIT_LIMIT,
              String.format(
                  Locale.ROOT,
                  "needs %s; %s reads %s, and a subtask without a split reads nothing: capped at"
                      + " %d, where a subtask reading %d split%s needs %.2f instances; more"
                      + " partitions would let it scale further",
                  ds2 > n ? String.valueOf(ds2) : "more than any split count allows",
                  chain(v),
                  what,
                  n,
                  chosen.busiestSplits(),
                  chosen.busiestSplits() == 1 ? "" : "s",
                  chosen.busiestLoad() / capacity)));
    } else if (chosen.parallelism() > ds2) {
      reasons.add(
          new Reason(
              ReasonCode.UNEVEN_SPLITS,
              String.format(
                  Locale.ROOT,
                  "%s reads %s%s: at DS2's %d, a subtask reads %d splits and would need %.2f"
                      + " instances; at %d the busiest reads %d (%.1f %% of the input)",
                  chain(v),
                  what,
                  load.assumedEven() ? ", assumed alike" : ", measured at p=" + at(load),
                  ds2,
                  atDs2.busiestSplits(),
                  atDs2.busiestLoad() / capacity,
                  chosen.parallelism(),
                  chosen.busiestSplits(),
                  100 * chosen.busiestLoad() / input)));
    }
    if (!chosen.hot().isEmpty()) {
      SplitLoad.HotSplit h = chosen.hot().get(0);
      reasons.add(
          new Reason(
              ReasonCode.HOT_SPLIT,
              String.format(
                  Locale.ROOT,
                  "%s alone needs %.2f instances (%.1f records/s)%s, which no parallelism fixes;"
                      + " sized for the other splits; spreading its producer's keys would help",
                  splits.alternatives().get(0).splits().get(h.split()),
                  h.load() / capacity,
                  h.load(),
                  chosen.hot().size() > 1 ? " (" + (chosen.hot().size() - 1) + " more)" : "")));
    }
    SplitSpread spread =
        new SplitSpread(
            splits.basis(),
            n,
            what,
            ds2,
            chosen.parallelism(),
            chosen.feasible(),
            chosen.busiestSubtask(),
            chosen.busiestSplits(),
            chosen.busiestLoad() / input,
            load.observedAt(),
            atCurrent.busiestLoad() / capacity);
    return estimate(
        v,
        obs,
        d,
        trueRate,
        OptionalDouble.of(required),
        chosen.parallelism(),
        reasons,
        Optional.of(spread));
  }

  /** Why the source cannot be sized from this window, if it cannot. */
  private static Optional<String> unusable(
      VertexObservation obs, double demand, OptionalDouble trueRate) {
    if (obs.recordsIn() <= 0 && obs.recordsOut() > 0) {
      return Optional.of(
          "its source operator reports no records read (a legacy SourceFunction does not)");
    }
    if (obs.recordsIn() > 0 && trueRate.isEmpty()) {
      return Optional.of(
          "no usable busy time was reported (a legacy SourceFunction's is NaN), so its capacity"
              + " is unknown");
    }
    if (obs.recordsIn() <= 0 && demand > 0) {
      return Optional.of("it read nothing in the window although records arrive");
    }
    return Optional.empty();
  }

  /**
   * The splits the source reads: named in its metrics (Kafka), given by the user, remembered from
   * an earlier window, or learned from subtasks that read nothing while a sibling read. A rescale
   * hands them back from the readers' state in near-equal shares ({@link
   * SplitAssignment.FromState}); a start without state assigns them by the enumerator's rule
   * (Kafka's, or in turn): sizing takes the worse of the two.
   */
  private static Splits splits(
      Vertex v, VertexObservation obs, OptionalInt given, KeyedHistory history) {
    Optional<SplitOwnership> named = obs.splits().filter(SplitOwnership::complete);
    if (named.isPresent()) {
      List<Split> all = named.get().splits();
      List<SplitAssignment> alternatives = new ArrayList<>();
      alternatives.add(new SplitAssignment.FromState(all));
      alternatives.addAll(KafkaAssignment.forEveryReading(all));
      return new Splits(
          SplitSpread.Basis.SPLIT_METRICS,
          List.copyOf(alternatives),
          named.get().resolve(reading(obs)));
    }
    if (given.isPresent()) {
      return counted(SplitSpread.Basis.GIVEN, given.getAsInt(), obs);
    }
    for (SubtaskShares o : history.of(v.id())) {
      if (o.owners().isPresent()) {
        return counted(SplitSpread.Basis.LEARNED_FROM_IDLE_SUBTASKS, o.maxParallelism(), obs);
      }
    }
    int reading = 0;
    int idle = 0;
    for (SubtaskSample s : obs.subtaskDeltas()) {
      if (!s.has(Counter.RECORDS_IN)) {
        return UNKNOWN;
      }
      if (s.value(Counter.RECORDS_IN) > 0) {
        reading++;
      } else if (s.busyRatio() < IDLE_BUSY) {
        idle++;
      }
    }
    if (reading > 0 && idle > 0 && reading + idle == obs.parallelism()) {
      return counted(SplitSpread.Basis.LEARNED_FROM_IDLE_SUBTASKS, reading, obs);
    }
    return UNKNOWN;
  }

  private static final Splits UNKNOWN =
      new Splits(SplitSpread.Basis.UNKNOWN, List.of(), Optional.empty());

  /** Splits only counted: dealt out in turn at a start, assumed so at the observed parallelism. */
  private static Splits counted(SplitSpread.Basis basis, int n, VertexObservation obs) {
    SplitAssignment.RoundRobin inTurn = new SplitAssignment.RoundRobin(n);
    return new Splits(
        basis,
        List.of(new SplitAssignment.FromState(inTurn.splits()), inTurn),
        Optional.of(inTurn.ownersAt(obs.parallelism())));
  }

  /** Per subtask, whether it read records over the window. */
  private static boolean[] reading(VertexObservation obs) {
    boolean[] reading = new boolean[obs.parallelism()];
    for (SubtaskSample s : obs.subtaskDeltas()) {
      if (s.subtask() >= 0
          && s.subtask() < reading.length
          && s.has(Counter.RECORDS_IN)
          && s.value(Counter.RECORDS_IN) > 0) {
        reading[s.subtask()] = true;
      }
    }
    return reading;
  }

  /**
   * This window's shares of the source's demand per subtask, with the subtask of each split, merged
   * with what is remembered: what the next estimates remember of the source. Nothing new where the
   * metrics leave a split's reader open.
   */
  private static List<SubtaskShares> observe(
      Vertex v, VertexObservation obs, SourceDemand d, Splits splits, KeyedHistory history) {
    int p = obs.parallelism();
    List<SubtaskSample> subtasks = obs.subtaskDeltas();
    if (splits.owners().isEmpty() || subtasks.size() != p) {
      return history.of(v.id());
    }
    int[] owners = splits.owners().get();
    double[] rates = new double[p];
    double[] busy = new double[p];
    for (SubtaskSample s : subtasks) {
      int i = s.subtask();
      if (i < 0 || i >= p || !s.has(Counter.RECORDS_IN)) {
        return history.of(v.id());
      }
      rates[i] = s.value(Counter.RECORDS_IN) / obs.seconds();
      busy[i] = s.busyRatio();
    }
    boolean throttled = obs.backPressuredRatio().orElse(0) >= KeyedEstimate.THROTTLED_BACK_PRESSURE;
    double cost = obs.busyTimeMs().orElse(0) / 1000 / obs.recordsIn();
    Optional<SubtaskShares> seen =
        SubtaskShares.observeSplits(
            owners, rates, busy, d.currentRate(), throttled, cost, obs.recordsIn());
    return seen.map(s -> history.observationsWith(v.id(), s)).orElse(history.of(v.id()));
  }

  /** What the source reads: its topics and their partitions, or a count of splits. */
  private static String describe(Splits s) {
    for (SplitAssignment a : s.alternatives()) {
      if (a instanceof KafkaAssignment k) {
        return k.describe();
      }
    }
    return s.count() + " splits";
  }

  private static String at(SplitLoad load) {
    return load.observedAt().stream()
        .distinct()
        .map(String::valueOf)
        .reduce((a, b) -> a + "," + b)
        .orElse("?");
  }

  /** The vertex as its operators: a source and what Flink chained to it. */
  static String chain(Vertex v) {
    List<String> ops = v.operators();
    return ops.size() == 1 ? v.name() : "the chain " + String.join(" -> ", ops);
  }

  private static VertexEstimate estimate(
      Vertex v,
      VertexObservation obs,
      SourceDemand d,
      OptionalDouble trueRate,
      OptionalDouble required,
      int recommended,
      List<Reason> reasons,
      Optional<SplitSpread> splits) {
    // The demand is what the source reads; its vertex emits that through its chain (a chain
    // ending in a sink emits nothing downstream).
    return new VertexEstimate(
        v.id(),
        v.name(),
        true,
        true,
        obs.parallelism(),
        v.maxParallelism(),
        OptionalDouble.of(d.targetRate()),
        OptionalDouble.of(d.targetRate() * obs.sourceSelectivity()),
        trueRate,
        obs.selectivity(),
        required,
        recommended,
        reasons,
        Optional.empty(),
        splits);
  }
}
