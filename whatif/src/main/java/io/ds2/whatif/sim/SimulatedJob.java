package io.ds2.whatif.sim;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.scaler.Actuator;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.MetricSource;
import io.ds2.core.scaler.RequestResult;
import io.ds2.core.scaler.RescaleStatus;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A {@link LearnedJob} run as a fluid at whatever parallelism a controller gives it: the job
 * processes what arrives, up to its bottleneck's capacity (every vertex's input in proportion to
 * what the sources read); a source's shortfall waits in its backlog; a rescale stops the job for
 * the learnt downtime, then it runs at the new parallelism with its counters from zero. Its metrics
 * are what Flink's REST API would show of it (records in and out, busy, idle and back-pressured
 * time per subtask, evenly spread; each source's pending records), so the real loop, model and
 * policy drive it. Single-threaded: time moves only by {@link #advanceTo}.
 */
public final class SimulatedJob implements MetricSource, Actuator {
  // A source with no measurable cost is still busy a little: its reads are not free.
  private static final double SOURCE_MIN_BUSY = 0.01;

  // Arrivals swing by this share either way over this period (seconds): see step().
  private static final double JITTER = 0.005;
  private static final double JITTER_PERIOD_S = 17;

  private final LearnedJob job;
  private final List<Vertex> order;
  private final Map<String, java.util.Set<String>> downstream;
  private final Map<String, Integer> parallelism = new LinkedHashMap<>();
  private final Map<String, double[]> totals = new LinkedHashMap<>(); // in, out, busy, idle, bp ms
  private final Map<String, Double> backlog = new LinkedHashMap<>();
  private Instant now;
  private Instant runningSince;
  private Map<String, Integer> requested;
  private Instant showsAt;
  private int restarts;
  private final Outcome outcome = new Outcome();

  public SimulatedJob(LearnedJob job) {
    this.job = job;
    this.order = job.graph().topologicalOrder();
    this.downstream = downstream(job.graph());
    this.now = job.start();
    parallelism.putAll(job.initial());
    job.graph().sources().forEach(s -> backlog.put(s.id(), 0.0));
    restart(now);
  }

  public Outcome outcome() {
    return outcome;
  }

  public Instant now() {
    return now;
  }

  public Map<String, Integer> parallelism() {
    return Map.copyOf(parallelism);
  }

  private void restart(Instant at) {
    runningSince = at;
    order.forEach(v -> totals.put(v.id(), new double[5]));
  }

  /** Runs the job up to {@code t}, a second at a time (the demand changes by window). */
  public void advanceTo(Instant t) {
    while (now.isBefore(t)) {
      Instant next = now.plusSeconds(1);
      if (next.isAfter(t)) {
        next = t;
      }
      step(Duration.between(now, next).toMillis() / 1000.0);
      now = next;
      if (requested != null && !now.isBefore(showsAt)) {
        parallelism.putAll(requested);
        requested = null;
        restarts++;
        outcome.rescaled();
        restart(now);
      }
    }
  }

  private void step(double dt) {
    Map<String, Double> demand = new LinkedHashMap<>(job.demandAt(now));
    // Arrivals are never even to the record: a steady demand that exactly fills the bottleneck
    // would leave the backlog gauge standing still, which ds2 rightly takes for a stale gauge.
    double jitter = 1 + JITTER * Math.sin(2 * Math.PI * now.getEpochSecond() / JITTER_PERIOD_S);
    demand.replaceAll((k, v) -> v * jitter);
    double arriving = demand.values().stream().mapToDouble(Double::doubleValue).sum();
    boolean down = requested != null;
    double waiting = backlog.values().stream().mapToDouble(Double::doubleValue).sum();
    // What all sources together can read this second: all that arrives and waits, up to the
    // bottleneck's capacity for the job's mix of inputs; nothing while the job restarts.
    double wanted = arriving + waiting / dt;
    double read = down ? 0 : wanted;
    String bottleneck = null;
    for (Vertex v : order) {
      double share = job.shares().getOrDefault(v.id(), 0.0);
      Double rate = job.rates().get(v.id());
      if (share > 0 && rate != null && parallelism.get(v.id()) * rate / share < read) {
        read = parallelism.get(v.id()) * rate / share;
        bottleneck = v.id();
      }
    }
    double fraction = wanted > 0 ? read / wanted : 0;
    for (var e : backlog.entrySet()) {
      double arrives = demand.getOrDefault(e.getKey(), 0.0);
      double taken = fraction * (arrives + e.getValue() / dt);
      e.setValue(Math.max(0, e.getValue() + (arrives - taken) * dt));
    }
    double behind = backlog.values().stream().mapToDouble(Double::doubleValue).sum();
    outcome.observe(dt, arriving, read, behind, slots());
    if (down) {
      return;
    }
    boolean held = bottleneck != null;
    for (Vertex v : order) {
      int p = parallelism.get(v.id());
      double in = job.shares().getOrDefault(v.id(), 0.0) * read;
      Double rate = job.rates().get(v.id());
      double busy = rate == null ? 0 : Math.min(p, in / rate);
      if (job.graph().isSource(v.id())) {
        busy = Math.max(busy, SOURCE_MIN_BUSY * p);
      }
      // Upstream of the bottleneck a vertex waits for room downstream, elsewhere for records.
      boolean upstream =
          held && !v.id().equals(bottleneck) && downstream.get(v.id()).contains(bottleneck);
      double[] t = totals.get(v.id());
      t[0] += in * dt;
      t[1] += in * job.selectivities().getOrDefault(v.id(), 1.0) * dt;
      t[2] += busy * dt * 1000;
      t[upstream ? 4 : 3] += (p - busy) * dt * 1000;
    }
  }

  /** Every vertex each vertex's records reach, once: the fluid asks every simulated second. */
  private static Map<String, java.util.Set<String>> downstream(JobGraph graph) {
    Map<String, java.util.Set<String>> reach = new LinkedHashMap<>();
    List<Vertex> order = graph.topologicalOrder();
    for (int i = order.size() - 1; i >= 0; i--) {
      java.util.Set<String> r = new java.util.HashSet<>();
      for (var e : graph.outputsOf(order.get(i).id())) {
        r.add(e.to());
        r.addAll(reach.get(e.to()));
      }
      reach.put(order.get(i).id(), r);
    }
    return reach;
  }

  private int slots() {
    return parallelism.values().stream().mapToInt(Integer::intValue).max().orElse(1);
  }

  @Override
  public String jobId() {
    return job.topology().jobId();
  }

  @Override
  public JobTopology topology() {
    return job.topology();
  }

  @Override
  public JobSample sample(JobGraph graph) {
    Map<String, VertexSample> vertices = new LinkedHashMap<>();
    for (Vertex v : order) {
      int p = parallelism.get(v.id());
      double[] t = totals.get(v.id());
      List<SubtaskSample> subtasks = new ArrayList<>(p);
      for (int k = 0; k < p; k++) {
        subtasks.add(SubtaskSample.of(k, t[0] / p, t[1] / p, t[2] / p, t[3] / p, t[4] / p));
      }
      OptionalDouble pending =
          backlog.containsKey(v.id())
              ? OptionalDouble.of(backlog.get(v.id()))
              : OptionalDouble.empty();
      vertices.put(
          v.id(), new VertexSample(v.id(), "RUNNING", p, subtasks, pending, Optional.empty()));
    }
    String state = requested != null ? "RESTARTING" : "RUNNING";
    return new JobSample(now, state, runningSince, OptionalLong.of(restarts), vertices);
  }

  @Override
  public RequestResult request(Map<String, Integer> target) {
    Map<String, Integer> wanted = new LinkedHashMap<>(parallelism);
    wanted.putAll(target);
    if (!wanted.equals(parallelism)) {
      requested = wanted;
      showsAt = now.plus(job.downtime());
    }
    return new RequestResult.Accepted(wanted);
  }

  @Override
  public RescaleStatus observe(Map<String, Integer> wanted) {
    Map<String, Integer> all = new LinkedHashMap<>(parallelism);
    all.putAll(wanted);
    return all.equals(parallelism) && requested == null
        ? new RescaleStatus.Applied(all)
        : new RescaleStatus.Pending(false, Map.copyOf(parallelism), "the job to restart");
  }

  @Override
  public Duration pollInterval() {
    return Duration.ofSeconds(1);
  }

  @Override
  public String abandon(Map<String, Integer> wanted, RescaleStatus.Pending last, Duration timeout) {
    requested = null;
    return "requested " + wanted + " but after " + timeout.toSeconds() + " s still runs " + last;
  }
}
