package io.ds2.experiments.scale;

import io.ds2.experiments.scale.SoakCluster.Role;
import io.ds2.operator.FlinkKinds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * ds2's operator, two replicas at the chart's settings, on a real kube-apiserver for a long time
 * while it is made to fail: in every 10-minute cycle the API server is killed (every other time
 * down for 25 s, longer than the Lease's renew deadline, so both replicas lose it), the Lease is
 * taken by another identity, the Flink operator of one job stops for 90 s, one job's upgrades do
 * not take (every other cycle) and one job is under a change freeze that refuses ds2's patches (the
 * other cycles); demand switches between x1 and x1.5 every 8 minutes so every job keeps rescaling.
 * What must hold: no job unread by ds2 for more than two windows, never a write by a replica while
 * another leads, no override beyond a job's slots and none left in a spec that the job does not
 * run, heap and threads flat.
 */
public final class OperatorSoakBenchmark {
  /** The faults' cycle in the soak (shorter only to try the harness out). */
  public static final Duration CYCLE = Duration.ofMinutes(10);

  static final Duration DEMAND_PERIOD = Duration.ofMinutes(8);
  // ds2's defaults: 30 s windows, 3 min rescale timeout.
  static final Duration WINDOW = Duration.ofSeconds(30);
  static final Duration RESCALE_TIMEOUT = Duration.ofMinutes(3);
  static final int CAPPED_SLOTS = 3;
  static final List<Role> ROLES =
      List.of(Role.PLAIN, Role.PLAIN, Role.CAPPED, Role.REFUSED, Role.FROZEN, Role.SLOW);

  /** A fault as it was injected, {@code seconds} into the run. */
  public record Fault(double seconds, String kind, double tookSeconds) {}

  public record Sample(
      double seconds, double heapAfterGcMiB, int threads, String leader, double longestUnread) {}

  public record JobResult(
      String name,
      String role,
      double longestUnreadSeconds,
      double atSeconds,
      double longestMismatchSeconds,
      int infeasibleSightings,
      int applied,
      String finalOverrides,
      Map<String, Integer> finalParallelism) {}

  public record Result(
      double minutes,
      double windowSeconds,
      List<Fault> faults,
      List<Sample> samples,
      List<JobResult> jobs,
      double longestUnreadSeconds,
      int bothLeadingSeconds,
      int noLeaderSeconds,
      int writes,
      int writesByNonLeader,
      int writesWhileAnotherLed,
      Map<String, Integer> writesByReplica,
      List<String> writesNotLeading,
      double heapSlopeMiBPerHour,
      double threadSlopePerHour,
      Map<String, Integer> eventsByReason,
      Map<String, double[]> decisionsAndRescalesByReplica,
      Map<String, Integer> threadsByName) {}

  private OperatorSoakBenchmark() {}

  public static Result run(Duration length, Duration cycleLength, Consumer<String> progress)
      throws Exception {
    long cycleMs = cycleLength.toMillis();
    long t0 = System.currentTimeMillis();
    List<Fault> faults = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Sample> samples = new ArrayList<>();
    Map<String, double[]> unread = new HashMap<>(); // longest, at
    Map<String, Long> mismatchSince = new HashMap<>();
    Map<String, Double> longestMismatch = new HashMap<>();
    Map<String, Integer> infeasible = new HashMap<>();
    int bothLeading = 0;
    int noLeader = 0;
    try (SoakCluster c = new SoakCluster(ROLES, 250)) {
      c.start();
      ExecutorService injector = Executors.newSingleThreadExecutor();
      long nextSecond = t0;
      long nextResources = t0;
      int cycleDone = -1;
      int demandPhase = 0;
      while (System.currentTimeMillis() - t0 < length.toMillis()) {
        long now = System.currentTimeMillis();
        double at = (now - t0) / 1000.0;
        int cycle = (int) ((now - t0) / cycleMs);
        if (cycle != cycleDone) {
          cycleDone = cycle;
          schedule(c, injector, cycle, t0 + cycle * cycleMs, cycleMs, faults, t0, progress);
        }
        int phase = (int) ((now - t0) / DEMAND_PERIOD.toMillis());
        if (phase != demandPhase) {
          demandPhase = phase;
          double demand = phase % 2 == 0 ? 250 : 375;
          c.jobs.values().forEach(j -> j.fluid().demand(demand));
          progress.accept(String.format("%6.0f s  demand %.0f/s", at, demand));
        }
        // Each second: who leads, how long each job has gone unread, what each spec asks.
        String leader = c.leader();
        bothLeading += leader.contains("+") ? 1 : 0;
        noLeader += leader.equals("none") ? 1 : 0;
        double longestNow = 0;
        for (var j : c.jobs.values()) {
          long last = c.flink.lastRead(j.fluid().id());
          if (last > 0) {
            double gap = (now - last) / 1000.0;
            longestNow = Math.max(longestNow, gap);
            double[] u = unread.computeIfAbsent(j.name(), k -> new double[2]);
            if (gap > u[0]) {
              u[0] = gap;
              u[1] = at;
            }
          }
        }
        try {
          for (GenericKubernetesResource r :
              c.kube
                  .admin()
                  .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
                  .inNamespace(SoakCluster.NS)
                  .list()
                  .getItems()) {
            var j = c.jobs.get(r.getMetadata().getName());
            Map<String, Integer> asked = overrides(r);
            if (j.role() == Role.CAPPED
                && asked.values().stream().anyMatch(p -> p > CAPPED_SLOTS)) {
              infeasible.merge(j.name(), 1, Integer::sum);
            }
            Map<String, Integer> runs = j.fluid().parallelism();
            boolean mismatch =
                asked.entrySet().stream().anyMatch(e -> !e.getValue().equals(runs.get(e.getKey())));
            if (mismatch) {
              long since = mismatchSince.computeIfAbsent(j.name(), k -> now);
              longestMismatch.merge(j.name(), (now - since) / 1000.0, Math::max);
            } else {
              mismatchSince.remove(j.name());
            }
          }
        } catch (RuntimeException e) {
          // The API server is down: nothing to read this second.
        }
        if (now >= nextResources) {
          System.gc();
          Sample s =
              new Sample(
                  at,
                  ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0,
                  ManagementFactory.getThreadMXBean().getThreadCount(),
                  leader,
                  longestNow);
          samples.add(s);
          progress.accept(
              String.format(
                  "%6.0f s  heap %.1f MiB  threads %d  leader %s  longest unread now %.0f s",
                  at, s.heapAfterGcMiB(), s.threads(), leader, longestNow));
          nextResources += 30_000;
        }
        nextSecond += 1000;
        Thread.sleep(Math.max(0, nextSecond - System.currentTimeMillis()));
      }
      injector.shutdownNow();
      return result(
          c,
          length,
          cycleLength,
          faults,
          samples,
          unread,
          longestMismatch,
          infeasible,
          bothLeading,
          noLeader,
          t0);
    }
  }

  /** The faults of one cycle, each at its time, on the injector thread. */
  private static void schedule(
      SoakCluster c,
      ExecutorService injector,
      int cycle,
      long cycleStart,
      long cycleMs,
      List<Fault> faults,
      long t0,
      Consumer<String> progress) {
    var refused = job(c, Role.REFUSED);
    var frozen = job(c, Role.FROZEN);
    var slow = job(c, Role.SLOW);
    injector.submit(
        () -> {
          try {
            refused.standIn().refuse(cycle % 2 == 0);
            c.freeze(frozen.name(), cycle % 2 == 1);
            note(
                faults, t0, cycle % 2 == 0 ? "upgrades-do-not-take" : "change-freeze", 0, progress);
            at(cycleStart + cycleMs / 5);
            slow.standIn().pause(true);
            long p = System.currentTimeMillis();
            at(p + Math.min(90_000, cycleMs * 3 / 20));
            slow.standIn().pause(false);
            note(
                faults,
                t0,
                "flink-operator-paused",
                (System.currentTimeMillis() - p) / 1e3,
                progress);
            at(cycleStart + cycleMs * 2 / 5);
            Duration down = cycle % 2 == 0 ? Duration.ZERO : Duration.ofSeconds(25);
            long r = System.currentTimeMillis();
            c.kube.restartApiServer(down);
            note(
                faults,
                t0,
                "api-server-restart-down-" + down.toSeconds() + "s",
                (System.currentTimeMillis() - r) / 1e3,
                progress);
            at(cycleStart + cycleMs * 4 / 5);
            long s = System.currentTimeMillis();
            stealLease(c);
            note(faults, t0, "lease-taken-15s", (System.currentTimeMillis() - s) / 1e3, progress);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (Exception e) {
            note(faults, t0, "injection-failed: " + e, 0, progress);
          }
        });
  }

  /** Another identity takes the Lease for 15 s and never renews it (retried on a 409). */
  private static void stealLease(SoakCluster c) throws InterruptedException {
    for (int attempt = 0; attempt < 40; attempt++) {
      try {
        c.kube
            .admin()
            .leases()
            .inNamespace(SoakCluster.RELEASE_NS)
            .withName(SoakCluster.LEASE)
            .edit(
                l -> {
                  l.getSpec().setHolderIdentity("intruder");
                  l.getSpec().setLeaseDurationSeconds(15);
                  l.getSpec().setRenewTime(ZonedDateTime.now());
                  return l;
                });
        return;
      } catch (RuntimeException e) {
        Thread.sleep(250);
      }
    }
    throw new IllegalStateException("could not take the Lease in 10 s");
  }

  private static void at(long epochMs) throws InterruptedException {
    Thread.sleep(Math.max(0, epochMs - System.currentTimeMillis()));
  }

  private static void note(
      List<Fault> faults, long t0, String kind, double took, Consumer<String> progress) {
    double at = (System.currentTimeMillis() - t0) / 1000.0;
    faults.add(new Fault(at, kind, took));
    progress.accept(String.format("%6.0f s  fault %s (%.1f s)", at, kind, took));
  }

  private static SoakCluster.Job job(SoakCluster c, Role role) {
    return c.jobs.values().stream().filter(j -> j.role() == role).findFirst().orElseThrow();
  }

  static Map<String, Integer> overrides(GenericKubernetesResource r) {
    Object o = FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES);
    Map<String, Integer> m = new TreeMap<>();
    if (o != null && !o.toString().isBlank()) {
      for (String pair : o.toString().split(",")) {
        String[] kv = pair.split(":");
        m.put(kv[0].trim(), Integer.parseInt(kv[1].trim()));
      }
    }
    return m;
  }

  private static Result result(
      SoakCluster c,
      Duration length,
      Duration cycle,
      List<Fault> faults,
      List<Sample> samples,
      Map<String, double[]> unread,
      Map<String, Double> longestMismatch,
      Map<String, Integer> infeasible,
      int bothLeading,
      int noLeader,
      long t0) {
    List<JobResult> jobs = new ArrayList<>();
    for (var j : c.jobs.values()) {
      var r =
          c.kube
              .admin()
              .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
              .inNamespace(SoakCluster.NS)
              .withName(j.name())
              .get();
      double[] u = unread.getOrDefault(j.name(), new double[2]);
      jobs.add(
          new JobResult(
              j.name(),
              j.role().name(),
              u[0],
              u[1],
              longestMismatch.getOrDefault(j.name(), 0.0),
              infeasible.getOrDefault(j.name(), 0),
              j.standIn().applied(),
              String.valueOf(FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES)),
              new TreeMap<>(j.fluid().parallelism())));
    }
    List<SoakCluster.Write> writes = new ArrayList<>(c.writes);
    Map<String, Integer> byReplica = new TreeMap<>();
    writes.forEach(w -> byReplica.merge(w.replica(), 1, Integer::sum));
    Map<String, Integer> events = new TreeMap<>();
    for (var e : c.kube.admin().v1().events().inNamespace(SoakCluster.NS).list().getItems()) {
      events.merge(
          e.getType() + "/" + e.getReason(), e.getCount() == null ? 1 : e.getCount(), Integer::sum);
    }
    Map<String, double[]> byReplicaFigures = new TreeMap<>();
    c.metrics.forEach(
        (id, m) -> {
          double[] f = new double[2];
          for (String name : c.jobs.keySet()) {
            var fig = m.figures(SoakCluster.NS, name);
            f[0] += fig.decisions();
            f[1] += fig.appliedRescales();
          }
          byReplicaFigures.put(id, f);
        });
    // Slopes over whole cycles after the first: the faults make a saw-tooth within a cycle.
    double from = cycle.toSeconds();
    double to = (long) (length.toSeconds() / cycle.toSeconds()) * (double) cycle.toSeconds();
    List<Sample> steady =
        samples.stream().filter(s -> s.seconds() >= from && s.seconds() < to).toList();
    return new Result(
        length.toSeconds() / 60.0,
        WINDOW.toSeconds(),
        List.copyOf(faults),
        samples,
        jobs,
        jobs.stream().mapToDouble(JobResult::longestUnreadSeconds).max().orElse(0),
        bothLeading,
        noLeader,
        writes.size(),
        (int) writes.stream().filter(w -> !w.writerLeads()).count(),
        (int) writes.stream().filter(SoakCluster.Write::otherLeads).count(),
        byReplica,
        writes.stream()
            .filter(w -> !w.writerLeads() || w.otherLeads())
            .map(
                w ->
                    String.format(
                        "%.1f s %s %s %s%s",
                        (w.atMs() - t0) / 1000.0,
                        w.replica(),
                        w.method(),
                        w.path(),
                        w.otherLeads() ? " WHILE ANOTHER LED" : ""))
            .toList(),
        slope(steady, Sample::heapAfterGcMiB),
        slope(steady, s -> s.threads()),
        events,
        byReplicaFigures,
        threadsByName());
  }

  /** Live threads by name, digits taken out (what a thread leak would show under). */
  private static Map<String, Integer> threadsByName() {
    Map<String, Integer> m = new TreeMap<>();
    Thread.getAllStackTraces()
        .keySet()
        .forEach(t -> m.merge(t.getName().replaceAll("[0-9]+", "N"), 1, Integer::sum));
    return m;
  }

  private static double slope(List<Sample> samples, java.util.function.ToDoubleFunction<Sample> v) {
    return Slopes.perHour(samples, Sample::seconds, v);
  }
}
