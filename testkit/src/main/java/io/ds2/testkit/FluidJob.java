package io.ds2.testkit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A simulated Flink job as a fluid: a chain of vertices with per-record costs, a source demand and
 * a parallelism per vertex. Counters advance with wall time: the chain's throughput is its
 * bottleneck's capacity, each vertex is busy for the records it processes times its cost, the rest
 * of each second idle; the source's shortfall becomes backlog. A rescale restarts the job (counters
 * from zero, a new RUNNING time), as Flink does. Thread-safe.
 */
public final class FluidJob {
  /** One vertex: cost in seconds per record at parallelism 1, records out per record in. */
  public record Stage(String id, String name, double cost, double selectivity) {}

  private final String id;
  private final List<Stage> stages;
  private volatile double demand;
  private final Map<String, Integer> parallelism = new LinkedHashMap<>();
  private long runningSinceMs;
  private long lastMs;
  private double pending;
  private final Map<String, double[]> totals = new LinkedHashMap<>(); // in, out, busy ms, idle ms

  public FluidJob(String id, List<Stage> stages, double demand, long nowMs) {
    this.id = id;
    this.stages = List.copyOf(stages);
    this.demand = demand;
    stages.forEach(s -> parallelism.put(s.id(), 1));
    restart(nowMs);
  }

  public String id() {
    return id;
  }

  public double demand() {
    return demand;
  }

  /** A new demand from now on (records/s at the source). */
  public void demand(double recordsPerSecond) {
    this.demand = recordsPerSecond;
  }

  public List<Stage> stages() {
    return stages;
  }

  public synchronized long runningSinceMs() {
    return runningSinceMs;
  }

  public synchronized Map<String, Integer> parallelism() {
    return Map.copyOf(parallelism);
  }

  /** Applies a new parallelism: the job restarts, its counters start from zero. */
  public synchronized void rescale(Map<String, Integer> target, long nowMs) {
    advance(nowMs);
    if (!target.equals(parallelism)) {
      parallelism.putAll(target);
      restart(nowMs);
    }
  }

  private void restart(long nowMs) {
    runningSinceMs = nowMs;
    lastMs = nowMs;
    stages.forEach(s -> totals.put(s.id(), new double[4]));
  }

  /** Per-subtask cumulative values of one vertex at {@code nowMs}: in, out, busy ms, idle ms. */
  public synchronized double[] subtask(String vertexId, long nowMs) {
    advance(nowMs);
    double[] t = totals.get(vertexId);
    int p = parallelism.get(vertexId);
    return new double[] {t[0] / p, t[1] / p, t[2] / p, t[3] / p};
  }

  public synchronized double pendingRecords(long nowMs) {
    advance(nowMs);
    return pending;
  }

  private void advance(long nowMs) {
    double dt = (nowMs - lastMs) / 1000.0;
    if (dt <= 0) {
      return;
    }
    lastMs = nowMs;
    // Throughput at the source: its demand, or what the bottleneck lets through.
    double rate = demand + pending / dt;
    double factor = 1;
    for (Stage s : stages.subList(1, stages.size())) {
      double capacity = parallelism.get(s.id()) / s.cost();
      rate = Math.min(rate, capacity / factor);
      factor *= s.selectivity();
    }
    pending = Math.max(0, pending + (demand - rate) * dt);
    double in = rate;
    for (int i = 0; i < stages.size(); i++) {
      Stage s = stages.get(i);
      int p = parallelism.get(s.id());
      double[] t = totals.get(s.id());
      double processed = i == 0 ? 0 : in;
      double out = i == 0 ? rate : in * s.selectivity();
      double busy = i == 0 ? 0.01 * p : Math.min(p, processed * s.cost());
      t[0] += processed * dt;
      t[1] += out * dt;
      t[2] += busy * dt * 1000;
      t[3] += (p - busy) * dt * 1000;
      in = out;
    }
  }
}
