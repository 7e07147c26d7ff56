package io.ds2.testkit;

import io.ds2.core.graph.Edge;
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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A job for loop tests that need neither Flink nor Kubernetes: a {@link FluidJob} chain on a given
 * clock, polled as a {@link MetricSource} and rescaled as an {@link Actuator}. A rescale takes
 * {@code restart} to show (the job is down meanwhile), or never, if so set. Counts the calls it is
 * given at once, so a test can check that one job's loop never overlaps itself.
 */
public final class FakeJob implements MetricSource, Actuator {
  private final FluidJob fluid;
  private final Clock clock;
  private final JobGraph graph;
  private final AtomicInteger inside = new AtomicInteger();
  private final AtomicInteger mostInside = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private volatile Duration restart = Duration.ofSeconds(1);
  private volatile boolean applies = true;
  private volatile Duration callTakes = Duration.ZERO;
  private volatile Duration settle = Duration.ZERO;
  private final AtomicInteger settles = new AtomicInteger();
  private Instant settledAt;
  private Map<String, Integer> requested;
  private Instant showsAt;

  /**
   * @param stages the chain, source first (its cost is ignored)
   */
  public FakeJob(String id, Clock clock, double demand, List<FluidJob.Stage> stages) {
    this.clock = clock;
    this.fluid = new FluidJob(id, stages, demand, clock.millis());
    List<Vertex> vertices = new ArrayList<>();
    List<Edge> edges = new ArrayList<>();
    for (int i = 0; i < stages.size(); i++) {
      vertices.add(new Vertex(stages.get(i).id(), stages.get(i).name(), 128));
      if (i > 0) {
        edges.add(new Edge(stages.get(i - 1).id(), stages.get(i).id(), "REBALANCE"));
      }
    }
    this.graph = JobGraph.of(vertices, edges);
  }

  /** How long a rescale takes to show (the job is down meanwhile). */
  public FakeJob restartTakes(Duration d) {
    this.restart = d;
    return this;
  }

  /** Requests are accepted and never applied (e.g. too few slots). */
  public FakeJob neverApplies() {
    this.applies = false;
    return this;
  }

  /** Every call takes this long on the calling thread (widens races in concurrency tests). */
  public FakeJob callsTake(Duration d) {
    this.callTakes = d;
    return this;
  }

  /**
   * Every sample must be got ready through {@link #settle} this long before it is taken, as Flink's
   * store refreshes after a request starts it; a sample taken sooner fails.
   */
  public FakeJob metricsSettleIn(Duration d) {
    this.settle = d;
    return this;
  }

  /** How many times a sample was got ready. */
  public int settles() {
    return settles.get();
  }

  public FluidJob fluid() {
    return fluid;
  }

  /** The most calls that were ever inside this job at once. */
  public int mostConcurrentCalls() {
    return mostInside.get();
  }

  public int requests() {
    return requests.get();
  }

  @Override
  public String jobId() {
    return fluid.id();
  }

  @Override
  public JobTopology topology() {
    return call(() -> new JobTopology(fluid.id(), "fake-" + fluid.id(), graph));
  }

  @Override
  public synchronized Duration settle() {
    if (settledAt == null) {
      settles.incrementAndGet();
      settledAt = clock.instant().plus(settle);
    }
    Duration left = Duration.between(clock.instant(), settledAt);
    return left.isNegative() ? Duration.ZERO : left;
  }

  @Override
  public JobSample sample(JobGraph g) {
    synchronized (this) {
      if (!settle.isZero() && (settledAt == null || clock.instant().isBefore(settledAt))) {
        throw new IllegalStateException("sampled before its metrics settled");
      }
      settledAt = null;
    }
    return call(this::sampleNow);
  }

  private JobSample sampleNow() {
    long now = clock.millis();
    Map<String, Integer> p = fluid.parallelism();
    Map<String, VertexSample> vertices = new LinkedHashMap<>();
    for (int i = 0; i < fluid.stages().size(); i++) {
      String id = fluid.stages().get(i).id();
      double[] t = fluid.subtask(id, now);
      List<SubtaskSample> subtasks = new ArrayList<>();
      for (int k = 0; k < p.get(id); k++) {
        subtasks.add(SubtaskSample.of(k, t[0], t[1], t[2], t[3], 0));
      }
      OptionalDouble pending =
          i == 0 ? OptionalDouble.of(fluid.pendingRecords(now)) : OptionalDouble.empty();
      vertices.put(id, new VertexSample(id, "RUNNING", p.get(id), subtasks, pending));
    }
    return new JobSample(
        clock.instant(),
        "RUNNING",
        Instant.ofEpochMilli(fluid.runningSinceMs()),
        OptionalLong.of(0),
        vertices);
  }

  @Override
  public RequestResult request(Map<String, Integer> target) {
    return call(
        () -> {
          requests.incrementAndGet();
          Map<String, Integer> wanted = new TreeMap<>(fluid.parallelism());
          wanted.putAll(target);
          synchronized (this) {
            requested = wanted;
            showsAt = clock.instant().plus(restart);
          }
          return new RequestResult.Accepted(wanted);
        });
  }

  @Override
  public RescaleStatus observe(Map<String, Integer> wanted) {
    return call(
        () -> {
          synchronized (this) {
            if (applies && requested != null && !clock.instant().isBefore(showsAt)) {
              fluid.rescale(requested, clock.millis());
              requested = null;
            }
          }
          Map<String, Integer> running = new TreeMap<>(fluid.parallelism());
          if (running.equals(new TreeMap<>(wanted))) {
            return new RescaleStatus.Applied(wanted);
          }
          boolean restarting = applies && requested != null;
          return new RescaleStatus.Pending(!restarting, running, "the fake job to restart");
        });
  }

  @Override
  public Duration pollInterval() {
    return Duration.ofMillis(250);
  }

  @Override
  public String abandon(Map<String, Integer> wanted, RescaleStatus.Pending last, Duration timeout) {
    return call(
        () -> {
          synchronized (this) {
            requested = null;
          }
          return "requested "
              + wanted
              + " but after "
              + timeout.toSeconds()
              + " s still runs "
              + last.running();
        });
  }

  private <T> T call(java.util.function.Supplier<T> body) {
    int now = inside.incrementAndGet();
    mostInside.accumulateAndGet(now, Math::max);
    try {
      if (!callTakes.isZero()) {
        try {
          Thread.sleep(callTakes.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return body.get();
    } finally {
      inside.decrementAndGet();
    }
  }
}
