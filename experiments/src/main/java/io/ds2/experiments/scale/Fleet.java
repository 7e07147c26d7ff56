package io.ds2.experiments.scale;

import io.ds2.controller.loop.ControlLoop;
import io.ds2.controller.loop.LoopListener;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobSampler;
import io.ds2.model.estimate.DemandScenario;
import io.ds2.model.options.Ds2Options;
import io.ds2.model.policy.Decision;
import io.ds2.model.scaler.JobTopology;
import io.ds2.model.scaler.Mode;
import io.ds2.model.scaler.RescaleOutcome;
import io.ds2.model.scaler.ScalerEvent;
import io.ds2.testkit.FluidJob;
import io.ds2.testkit.SimulatedFlink;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * N simulated jobs (fluid models behind one {@link SimulatedFlink} endpoint) each driven by ds2's
 * real loop on its own thread, all through one shared REST client. Counts decisions (with their
 * times), applied rescales and reported problems.
 */
final class Fleet implements AutoCloseable {
  private final SimulatedFlink flink;
  private final FlinkRestClient client;
  private final List<FluidJob> jobs = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  final Map<String, List<Long>> decisionTimes = new ConcurrentHashMap<>();
  final AtomicLong decisions = new AtomicLong();
  final AtomicLong rescales = new AtomicLong();
  final AtomicLong problems = new AtomicLong();

  Fleet(int n, Ds2Options options) throws Exception {
    flink = new SimulatedFlink(8);
    client = new FlinkRestClient(flink.url(), Duration.ofSeconds(30));
    for (int i = 0; i < n; i++) {
      String id = String.format("%032x", i + 1);
      // 300-400 records/s into costs that need 3-5 Parse, 2-3 Enrich and 1-2 Sink instances.
      FluidJob job =
          new FluidJob(
              id,
              List.of(
                  new FluidJob.Stage("a" + id.substring(1), "Source: In", 0, 1),
                  new FluidJob.Stage("b" + id.substring(1), "Parse", 0.0111, 1),
                  new FluidJob.Stage("c" + id.substring(1), "Enrich", 0.0065, 0.5),
                  new FluidJob.Stage("d" + id.substring(1), "Sink", 0.008, 0)),
              baseDemand(i),
              System.currentTimeMillis());
      flink.add(job);
      jobs.add(job);
      List<Long> times = Collections.synchronizedList(new ArrayList<>());
      decisionTimes.put(id, times);
      ControlLoop loop =
          io.ds2.controller.loop.RestLoops.of(
              client,
              new JobSampler(client, id, Clock.systemUTC()),
              options,
              Mode.ACT,
              DemandScenario.measured(),
              new Counting(times));
      Thread t =
          new Thread(
              () -> {
                try {
                  loop.run(() -> !Thread.currentThread().isInterrupted(), Long.MAX_VALUE);
                } catch (InterruptedException e) {
                  // stopped
                }
              },
              "job-" + i);
      t.setDaemon(true);
      threads.add(t);
    }
  }

  /** Job {@code i}'s demand at x1: 300-400 records/s. */
  private static double baseDemand(int i) {
    return 300 + (i % 5) * 25;
  }

  void start() {
    threads.forEach(Thread::start);
  }

  List<FluidJob> jobs() {
    return jobs;
  }

  long requests() {
    return flink.requests();
  }

  int openConnections() {
    return client.openConnections();
  }

  /** Every job's demand times {@code factor} of its base (300-400 records/s). */
  void scaleDemand(double factor) {
    for (int i = 0; i < jobs.size(); i++) {
      jobs.get(i).demand(baseDemand(i) * factor);
    }
  }

  private boolean closed;

  @Override
  public void close() throws Exception {
    if (closed) {
      return;
    }
    closed = true;
    threads.forEach(Thread::interrupt);
    for (Thread t : threads) {
      t.join(10_000);
    }
    flink.close();
  }

  private final class Counting implements LoopListener {
    private final List<Long> times;

    Counting(List<Long> times) {
      this.times = times;
    }

    /** A REST call failed or timed out; the loop retries it after a window. */
    @Override
    public void problem(ScalerEvent.Problem p) {
      problems.incrementAndGet();
    }

    @Override
    public void decided(JobTopology t, Decision d, Mode mode) {
      times.add(System.nanoTime());
      decisions.incrementAndGet();
    }

    @Override
    public void rescaled(JobTopology t, Map<String, Integer> requested, RescaleOutcome o) {
      if (o instanceof RescaleOutcome.Applied) {
        rescales.incrementAndGet();
      }
    }
  }
}
