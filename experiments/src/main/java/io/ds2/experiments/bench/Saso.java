package io.ds2.experiments.bench;

import io.ds2.core.window.VertexSample;
import io.ds2.recording.Recorded;
import io.ds2.recording.RecordingReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * SASO figures of one run (benchmark-protocol.md §1), computed from its 1 Hz recording: per load
 * phase the rescale steps, time to the last rescale, final parallelism against the oracle,
 * overshoot; over the run slot-seconds (slot sharing: the widest vertex), parallelism-seconds,
 * seconds any operator ran below its oracle, and seconds the sources lagged by more than a second
 * of demand. Also writes the time series as CSV.
 */
public final class Saso {
  private Saso() {}

  /**
   * One load phase. {@code settleSeconds}: from the phase start to its last applied rescale. {@code
   * overloadShown}: for a phase that starts below its oracle, whether the overload showed at the
   * sources within 30 s ({@link OverloadCheck}; false makes the run invalid), else null. {@code
   * peakLag} and {@code endLag}: the sources' backlog (records) at its highest in the phase and at
   * the phase's end. {@code feedBehindPeak}: on a Kafka feed, the most records the producers were
   * behind their schedule in the phase (0: they kept to it); catching up, they burst. {@code
   * sloJudgedSeconds}, {@code sloBehindSeconds}: the lag-slope service level ({@link LagSlo}),
   * seconds judged after the phase's warm-up and seconds among them with the lag growing by more
   * than 1 % of the demand (0 and 0 in runs scored before it).
   */
  public record Phase(
      int index,
      double factor,
      int steps,
      double settleSeconds,
      Map<String, Integer> finalParallelism,
      Map<String, Integer> oracle,
      boolean reachedOracle,
      double accuracyError,
      double overshoot,
      KeepsUp.Verdict keepsUp,
      Boolean overloadShown,
      double peakLag,
      double endLag,
      double feedBehindPeak,
      double sloJudgedSeconds,
      double sloBehindSeconds) {}

  /**
   * One run. {@code runSloJudgedSeconds}, {@code runSloBehindSeconds}: the lag-slope service level
   * over the whole run after its first 120 s, across phases ({@link LagSlo#overRun}); {@code
   * learned}: from when a learnt load may be acted on (null: the scenario has no such stretch).
   */
  public record Result(
      String scenario,
      String controller,
      List<Phase> phases,
      int steps,
      int notApplied,
      double slotSeconds,
      double oracleSlotSeconds,
      double targetUtilization,
      double targetOracleSlotSeconds,
      double parallelismSeconds,
      double underProvisionedSeconds,
      double laggingSeconds,
      double runSloJudgedSeconds,
      double runSloBehindSeconds,
      Stretch learned,
      int decisions,
      Double decisionMedianMicros,
      double seconds,
      int repeat) {
    /** Results written before repeats were numbered are the first run. */
    public Result {
      repeat = Math.max(1, repeat);
    }

    /** This result with its decisions counted and timed elsewhere (live), as run {@code repeat}. */
    public Result withDecisions(int count, Double medianMicros, int repeat) {
      return new Result(
          scenario,
          controller,
          phases,
          steps,
          notApplied,
          slotSeconds,
          oracleSlotSeconds,
          targetUtilization,
          targetOracleSlotSeconds,
          parallelismSeconds,
          underProvisionedSeconds,
          laggingSeconds,
          runSloJudgedSeconds,
          runSloBehindSeconds,
          learned,
          count,
          medianMicros,
          seconds,
          repeat);
    }

    public boolean reachedOracle() {
      return phases.stream().allMatch(Phase::reachedOracle);
    }

    /** False when some phase's overload did not show at the sources: the run is not scored. */
    public boolean valid() {
      return phases.stream().noneMatch(p -> Boolean.FALSE.equals(p.overloadShown()));
    }
  }

  record Point(double t, int phase, Map<String, Integer> parallelism, int slots, double pending) {}

  /**
   * {@code old} computed again from its recording in {@code dir}, against today's oracles and
   * keeps-up test; the decision count and time measured live are kept.
   */
  public static Result rescore(Scenario s, Result old, Path dir, double target) throws IOException {
    String base =
        old.scenario() + "__" + old.controller() + (old.repeat() == 1 ? "" : "__r" + old.repeat());
    // A run of the job before Flink chained it (its vertices are not today's) keeps its own
    // oracle and score: today's oracle names other vertices.
    if (!old.phases().isEmpty()
        && !old.phases().get(0).oracle().keySet().equals(s.oracle(0).keySet())) {
      return old;
    }
    Path recording = dir.resolve(base + ".jsonl.gz");
    Result r = compute(s, old.controller(), recording, new DecisionTimer(), old.repeat(), target);
    return r.withDecisions(old.decisions(), old.decisionMedianMicros(), old.repeat());
  }

  /**
   * As above, for the {@code repeat}-th run of this scenario and controller, sizing for {@code
   * target} utilization (0: not known, then no oracle at its target).
   */
  public static Result compute(
      Scenario s, String controller, Path recording, DecisionTimer timer, int repeat, double target)
      throws IOException {
    Map<String, String> names = new HashMap<>();
    List<Point> points = new ArrayList<>();
    List<KeepsUp.Sampled> sampled = new ArrayList<>();
    java.util.Set<String> sources = new java.util.HashSet<>();
    List<Double> applied = new ArrayList<>();
    int notApplied = 0;
    Instant start = null;
    double[] phaseStart = new double[s.phases().size()];
    double[] feedBehind = new double[s.phases().size()];
    int phase = 0;
    double refresh = 1;
    try (RecordingReader r = RecordingReader.open(recording, false)) {
      refresh = r.header().cadence().toMillis() / 1000.0;
      for (Optional<Recorded> next = r.next(); next.isPresent(); next = r.next()) {
        Recorded rec = next.get();
        if (rec instanceof Recorded.Topology t) {
          t.topology().graph().topologicalOrder().forEach(v -> names.put(v.id(), v.name()));
          t.topology().graph().sources().forEach(v -> sources.add(v.id()));
        } else if (rec instanceof Recorded.Event e && e.kind().equals("phase")) {
          start =
              start == null ? Instant.ofEpochMilli(e.details().path("startMs").asLong()) : start;
          phase = e.details().path("index").asInt();
          phaseStart[phase] = seconds(start, e.time());
        } else if (rec instanceof Recorded.Event e && e.kind().equals("rescale-applied")) {
          applied.add(seconds(start, e.time()));
        } else if (rec instanceof Recorded.Event e && e.kind().equals(ScenarioRun.FEED_BEHIND)) {
          feedBehind[phase] = Math.max(feedBehind[phase], e.details().path("records").asDouble());
        } else if (rec instanceof Recorded.Event e && e.kind().equals("rescale-not-applied")) {
          notApplied++;
        } else if (rec instanceof Recorded.Sample sample
            && start != null
            && "RUNNING".equals(sample.sample().jobState())) {
          Map<String, Integer> p = new LinkedHashMap<>();
          int slots = 0;
          double pending = 0;
          for (VertexSample v : sample.sample().vertices().values()) {
            slots = Math.max(slots, v.parallelism());
            pending += v.pendingRecords().orElse(0);
            p.put(names.getOrDefault(v.vertexId(), v.vertexId()), v.parallelism());
          }
          double t = seconds(start, sample.sample().time());
          points.add(new Point(t, phase, p, slots, pending));
          sampled.add(new KeepsUp.Sampled(t, sample.sample()));
        }
      }
    }
    RunCsv.write(s, recording, points);
    Plots.parallelism(
        s,
        controller,
        points,
        recording.resolveSibling(recording.getFileName().toString().replace(".jsonl.gz", ".png")));
    double end = points.isEmpty() ? 0 : points.get(points.size() - 1).t();
    List<KeepsUp.Verdict> verdicts = new ArrayList<>();
    List<Boolean> shown = new ArrayList<>();
    for (int i = 0; i < s.phases().size(); i++) {
      double phaseEnd = i + 1 < s.phases().size() ? phaseStart[i + 1] : end;
      double demand = s.job().baseRate() * s.phases().get(i).factor();
      verdicts.add(KeepsUp.at(sampled, phaseEnd, demand, names, sources, shares(s, names)));
      int index = i;
      Map<String, Integer> atStart =
          points.stream()
              .filter(p -> p.phase() == index)
              .findFirst()
              .map(Point::parallelism)
              .orElse(Map.of());
      shown.add(
          OverloadCheck.shown(
              sampled, phaseStart[i], atStart, s.oracle(i), demand, sources, refresh));
    }
    return result(
        s,
        controller,
        points,
        sampled,
        sources,
        applied,
        notApplied,
        phaseStart,
        feedBehind,
        verdicts,
        shown,
        timer,
        repeat,
        target);
  }

  private static Result result(
      Scenario s,
      String controller,
      List<Point> points,
      List<KeepsUp.Sampled> sampled,
      java.util.Set<String> sources,
      List<Double> applied,
      int notApplied,
      double[] phaseStart,
      double[] feedBehind,
      List<KeepsUp.Verdict> verdicts,
      List<Boolean> overloadShown,
      DecisionTimer timer,
      int repeat,
      double target) {
    List<Phase> phases = new ArrayList<>();
    // Once per run, not per phase: a diurnal run has a phase a minute.
    var offsets = LagSlo.startOffsets(sampled, sources);
    for (int i = 0; i < s.phases().size(); i++) {
      double from = phaseStart[i];
      double to = i + 1 < s.phases().size() ? phaseStart[i + 1] : Double.MAX_VALUE;
      int index = i;
      List<Point> in = points.stream().filter(p -> p.phase() == index).toList();
      List<Double> steps = applied.stream().filter(t -> t >= from && t < to).toList();
      Map<String, Integer> oracle = s.oracle(i);
      // Judged on the vertices the oracle sizes (a Nexmark generator's source costs what it
      // costs, not a controlled cost: it is not among them).
      Map<String, Integer> last =
          in.isEmpty() ? Map.of() : onlyOf(in.get(in.size() - 1).parallelism(), oracle);
      int oracleSum = oracle.values().stream().mapToInt(Integer::intValue).sum();
      int error = 0;
      for (var e : oracle.entrySet()) {
        error += Math.abs(last.getOrDefault(e.getKey(), 0) - e.getValue());
      }
      double overshoot = 0;
      double peakLag = 0;
      for (Point p : in) {
        int sum =
            onlyOf(p.parallelism(), oracle).values().stream().mapToInt(Integer::intValue).sum();
        overshoot = Math.max(overshoot, (sum - oracleSum) / (double) oracleSum);
        peakLag = Math.max(peakLag, p.pending());
      }
      LagSlo.Verdict slo =
          LagSlo.of(
              points,
              sampled,
              sources,
              offsets,
              i,
              from,
              to,
              s.job().baseRate() * s.phases().get(i).factor());
      phases.add(
          new Phase(
              i,
              s.phases().get(i).factor(),
              steps.size(),
              steps.isEmpty() ? 0 : steps.get(steps.size() - 1) - from,
              last,
              oracle,
              last.equals(oracle),
              error / (double) oracleSum,
              overshoot,
              verdicts.get(i),
              overloadShown.get(i),
              peakLag,
              in.isEmpty() ? 0 : in.get(in.size() - 1).pending(),
              feedBehind[i],
              slo.judgedSeconds(),
              slo.behindSeconds()));
    }
    double slotSeconds = 0;
    double parallelismSeconds = 0;
    double lagging = 0;
    double under = 0;
    double oracleSlotSeconds = 0;
    double targetOracleSlotSeconds = 0;
    double baseRate = s.job().baseRate();
    // Slots of the oracles per phase (slot sharing: the widest vertex, at least the sources').
    int[] oracleSlots = new int[s.phases().size()];
    int[] targetOracleSlots = new int[s.phases().size()];
    for (int i = 0; i < oracleSlots.length; i++) {
      oracleSlots[i] = slotsOf(s.oracle(i), s);
      targetOracleSlots[i] = target > 0 ? slotsOf(s.oracle(i, target), s) : 0;
    }
    for (int i = 1; i < points.size(); i++) {
      Point a = points.get(i - 1);
      double dt = points.get(i).t() - a.t();
      slotSeconds += a.slots() * dt;
      parallelismSeconds +=
          a.parallelism().values().stream().mapToInt(Integer::intValue).sum() * dt;
      double demand = baseRate * s.phases().get(a.phase()).factor();
      if (a.pending() > demand) {
        lagging += dt;
      }
      if (belowOracle(a, s.oracle(a.phase()))) {
        under += dt;
      }
      oracleSlotSeconds += oracleSlots[a.phase()] * dt;
      targetOracleSlotSeconds += targetOracleSlots[a.phase()] * dt;
    }
    OptionalDouble median = timer.medianMicros();
    // Across phases too: a load that moves every minute has no phase long enough to judge.
    LagSlo.Verdict overRun = LagSlo.overRun(points, sampled, sources, s, 0);
    return new Result(
        s.name(),
        controller,
        phases,
        applied.size(),
        notApplied,
        slotSeconds,
        oracleSlotSeconds,
        target,
        targetOracleSlotSeconds,
        parallelismSeconds,
        under,
        lagging,
        overRun.judgedSeconds(),
        overRun.behindSeconds(),
        Stretch.learned(s, points, sampled, sources, applied),
        timer.count(),
        median.isPresent() ? median.getAsDouble() : null,
        points.isEmpty() ? 0 : points.get(points.size() - 1).t(),
        repeat);
  }

  /** Whether any vertex {@code oracle} names runs at {@code p} below it. */
  static boolean belowOracle(Point p, Map<String, Integer> oracle) {
    return oracle.entrySet().stream()
        .anyMatch(e -> p.parallelism().getOrDefault(e.getKey(), 0) < e.getValue());
  }

  /** {@code parallelism} of the vertices {@code oracle} names, in its order. */
  private static Map<String, Integer> onlyOf(
      Map<String, Integer> parallelism, Map<String, Integer> oracle) {
    Map<String, Integer> only = new LinkedHashMap<>();
    oracle.keySet().forEach(k -> only.put(k, parallelism.getOrDefault(k, 0)));
    return only;
  }

  private static int slotsOf(Map<String, Integer> oracle, Scenario s) {
    return Math.max(
        oracle.values().stream().mapToInt(Integer::intValue).max().orElse(1),
        s.job().sourceParallelism());
  }

  /**
   * Each source vertex's share of the scenario's demand, by vertex id (its name as the job names
   * it); empty where a name does not match, and the sources are then judged together.
   */
  static Map<String, Double> shares(Scenario s, Map<String, String> names) {
    Map<String, Double> rates = s.job().sourceRates();
    double total = rates.values().stream().mapToDouble(Double::doubleValue).sum();
    Map<String, Double> shares = new HashMap<>();
    names.forEach(
        (id, name) -> {
          Double rate = rates.get(name);
          if (rate != null && total > 0) {
            shares.put(id, rate / total);
          }
        });
    return shares.size() == rates.size() ? shares : Map.of();
  }

  private static double seconds(Instant start, Instant t) {
    return start == null ? 0 : (t.toEpochMilli() - start.toEpochMilli()) / 1000.0;
  }
}
