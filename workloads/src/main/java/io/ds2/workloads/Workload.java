package io.ds2.workloads;

import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A streaming job with controlled per-record costs and its closed-form oracle: the smallest
 * parallelism every operator vertex needs to sustain its sources' rates.
 */
public interface Workload {
  String name();

  /**
   * The same job with its sources' rates multiplied by the live {@link
   * io.ds2.workloads.source.RateControl} factor of {@code key}.
   */
  Workload withRateControl(String key);

  /** Adds the job's sources and operators to {@code env}. */
  void build(StreamExecutionEnvironment env);

  /** The oracle (operator vertex name to parallelism) at the base rates times {@code factor}. */
  Map<String, Integer> oracle(double rateFactor);

  /**
   * The oracle over the sources' events numbered {@code firstEvent} to {@code lastEvent}: for a job
   * whose keys roll with the event number, the spread over key groups of exactly those events (a
   * benchmark measures whether a run keeps up over a stretch of time). By default the spread does
   * not depend on which events.
   */
  default Map<String, Integer> oracle(double rateFactor, double firstEvent, double lastEvent) {
    return oracle(rateFactor);
  }

  /** Records per second the sources generate together at their base rate. */
  double baseRate();

  /** The parallelism the widest source vertex starts at. */
  int sourceParallelism();

  /** How many splits each source vertex reads, by vertex name. */
  Map<String, Integer> sourceSplits();

  /**
   * Records per second each source vertex reads at the base rate, by vertex name (together {@link
   * #baseRate}): a benchmark judges each source's backlog against its own share.
   */
  Map<String, Double> sourceRates();
}
