package io.ds2.whatif.sim;

import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.policy.Decision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.loop.EventSink;
import io.ds2.recording.Recorded;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A recorded job as a fluid, learnt from the DS2 estimates of a replay of its recording: per vertex
 * its true processing rate per instance, its input as a share of what all sources read, its
 * selectivity (medians over the windows); per window the sources' demand; the job's rescale
 * downtime from the rescales the recording saw. What a counterfactual replay runs other controllers
 * against: the recorded demand, the recorded job, any parallelism.
 *
 * @param rates true processing rate per instance by vertex id (absent: never busy enough to tell)
 * @param shares a vertex's input per record read by all sources together, by vertex id
 * @param selectivities records out per record in, by vertex id
 * @param demand each window's sources' demand (records/s by source id), from its end on
 * @param downtime how long a rescale stops the job
 * @param start the recording's first poll: the job runs from then (at the first window's demand)
 * @param end its last poll
 */
public record LearnedJob(
    JobTopology topology,
    Map<String, Integer> initial,
    Map<String, Double> rates,
    Map<String, Double> shares,
    Map<String, Double> selectivities,
    List<DemandStep> demand,
    Duration downtime,
    Instant start,
    Instant end) {

  /** The sources' demand from {@code at} on. */
  public record DemandStep(Instant at, Map<String, Double> rates) {
    public double total() {
      return rates.values().stream().mapToDouble(Double::doubleValue).sum();
    }
  }

  /** What a recording's rescales do not say: a restart from a checkpoint, as Flink's default. */
  public static final Duration DEFAULT_DOWNTIME = Duration.ofSeconds(10);

  public LearnedJob {
    initial = Map.copyOf(initial);
    rates = Map.copyOf(rates);
    shares = Map.copyOf(shares);
    selectivities = Map.copyOf(selectivities);
    demand = List.copyOf(demand);
  }

  public JobGraph graph() {
    return topology.graph();
  }

  /**
   * The sources' demand at {@code t} (the first window's before it); a binary search, as the fluid
   * asks once a simulated second over recordings of days.
   */
  public Map<String, Double> demandAt(Instant t) {
    int lo = 0;
    int hi = demand.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (demand.get(mid).at().isAfter(t)) {
        hi = mid - 1;
      } else {
        lo = mid;
      }
    }
    return demand.get(lo).rates();
  }

  /**
   * Collects what a replay's decisions and the recording's events (each record as it is replayed)
   * say about the job.
   */
  public static final class Learner implements EventSink {
    private JobTopology topology;
    private Map<String, Integer> initial;
    private final Map<String, List<Double>> rates = new HashMap<>();
    private final Map<String, List<Double>> shares = new HashMap<>();
    private final Map<String, List<Double>> selectivities = new HashMap<>();
    private final List<DemandStep> demand = new ArrayList<>();
    private final List<Double> downtimes = new ArrayList<>();
    private Instant first;
    private Instant last;

    @Override
    public void on(JobTopology t, ScalerEvent event) {
      if (t != null) {
        topology = t;
      }
      if (event instanceof ScalerEvent.Decided d) {
        learn(d.decision());
      }
    }

    public void replayed(Recorded record) {
      if (record instanceof Recorded.Sample s) {
        first = first == null ? s.sample().time() : first;
        last = s.sample().time();
      } else if (record instanceof Recorded.Topology t && initial == null) {
        initial = t.parallelism();
      } else if (record instanceof Recorded.Event e && e.kind().equals("rescale-applied")) {
        double down = e.details().path("downtimeSeconds").asDouble(Double.NaN);
        if (Double.isFinite(down) && down > 0) {
          downtimes.add(down);
        }
      }
    }

    private void learn(Decision d) {
      Map<String, Double> rates = new LinkedHashMap<>();
      double total = 0;
      for (SourceDemand s : d.estimate().demands().values()) {
        rates.put(s.vertexId(), s.targetRate());
        total += s.targetRate();
      }
      demand.add(new DemandStep(d.time(), rates));
      if (total <= 0) {
        return;
      }
      for (VertexEstimate v : d.estimate().vertices()) {
        if (!v.determined()) {
          continue;
        }
        v.trueProcessingRatePerInstance()
            .ifPresent(
                r -> this.rates.computeIfAbsent(v.vertexId(), k -> new ArrayList<>()).add(r));
        double in = total;
        if (v.targetInputRate().isPresent()) {
          in = v.targetInputRate().getAsDouble();
        }
        shares.computeIfAbsent(v.vertexId(), k -> new ArrayList<>()).add(in / total);
        v.selectivity()
            .ifPresent(
                s -> selectivities.computeIfAbsent(v.vertexId(), k -> new ArrayList<>()).add(s));
      }
    }

    /**
     * The job learnt, or empty if the replay decided on too few windows to say (fewer than two).
     */
    public java.util.Optional<LearnedJob> job() {
      if (topology == null || demand.size() < 2) {
        return java.util.Optional.empty();
      }
      Map<String, Integer> start = new LinkedHashMap<>();
      for (Vertex v : topology.graph().topologicalOrder()) {
        start.put(v.id(), initial == null ? 1 : initial.getOrDefault(v.id(), 1));
      }
      return java.util.Optional.of(
          new LearnedJob(
              topology,
              start,
              medians(rates),
              medians(shares),
              medians(selectivities),
              demand,
              downtimes.isEmpty()
                  ? DEFAULT_DOWNTIME
                  : Duration.ofMillis(Math.round(1000 * median(downtimes))),
              first,
              last));
    }

    private static Map<String, Double> medians(Map<String, List<Double>> values) {
      Map<String, Double> m = new HashMap<>();
      values.forEach((k, v) -> m.put(k, median(v)));
      return m;
    }

    private static double median(List<Double> values) {
      double[] s = values.stream().mapToDouble(Double::doubleValue).toArray();
      Arrays.sort(s);
      return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
  }
}
