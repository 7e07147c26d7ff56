package io.ds2.core.estimate;

import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.SubtaskShares;
import io.ds2.core.window.Backlog;
import io.ds2.core.window.ObservationWindow;
import io.ds2.core.window.VertexObservation;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/** Derives a source's demand from its observation over a window. */
public final class DemandEstimator {
  // Below VertexObservation.NEGLIGIBLE_BACKPRESSURE a source is not throttled in any way worth
  // extrapolating. Never extrapolate by more than 20x: a source blocked 95%+ of the time says
  // little.
  private static final double MAX_EXTRAPOLATION = 20;
  private static final double MIN_BACKLOG_COVERAGE = 0.5;

  /**
   * A source that never waited for records, whose lag hides what arrives ({@link
   * Backlog#headsHidden}), is given this times the capacity it read at: at least what it read, and
   * the gauge cannot say how much more (nor, where its job held it back, can the estimate
   * downstream, which starts from it). A bounded step, taken again in the next windows while it
   * never waits and its gauge stays blind, as a controller would probe; a rescale restarts the
   * consumers, whose first fetches show the partitions' heads afresh. The step is in capacity, not
   * in demand sized for the target utilization: the demand is {@code HIDDEN_STEP x read x target},
   * so that the job, sized for it at the target, carries twice what the source read. As a demand
   * sized at the target (0.7) it was a 2.9x step, and a source saturated only while it drained a
   * restart's backlog (3 instances reading 444/s where 400/s arrived, its lag blind) went to 12.
   */
  static final double HIDDEN_STEP = 2;

  private DemandEstimator() {}

  /**
   * Every source's demand for a window: the scenario's rate where given (by vertex id), else
   * inferred and scaled by the scenario's factor.
   */
  public static Map<String, SourceDemand> demands(
      JobGraph graph,
      ObservationWindow window,
      DemandScenario scenario,
      Optional<Duration> catchUp,
      double targetUtilization) {
    Map<String, Double> given = scenario.givenRates();
    Map<String, SourceDemand> demands = new HashMap<>();
    for (Vertex s : graph.sources()) {
      VertexObservation obs =
          window
              .vertex(s.id())
              .orElseThrow(() -> new IllegalArgumentException("no observation of " + s.name()));
      demands.put(
          s.id(),
          given.containsKey(s.id())
              ? explicit(obs, given.get(s.id()))
              : infer(obs, catchUp, targetUtilization).scaledBy(scenario.rateScale()));
    }
    return demands;
  }

  /** A demand the user stated: records/s arriving at the source (read by it). */
  public static SourceDemand explicit(VertexObservation source, double ratePerSecond) {
    return new SourceDemand(
        source.vertexId(),
        ratePerSecond,
        SourceDemand.Basis.EXPLICIT,
        source.observedSourceRate(),
        source.backlog().map(b -> OptionalDouble.of(b.growthPerSecond())).orElse(empty()),
        OptionalDouble.empty(),
        1,
        Optional.empty());
  }

  /** As {@link #infer(VertexObservation, Optional, double)} for a job sized to be fully busy. */
  public static SourceDemand infer(VertexObservation source, Optional<Duration> catchUp) {
    return infer(source, catchUp, 1);
  }

  /**
   * Infers demand: with a backlog metric, the arrival rate (read + backlog growth, fitted over the
   * window) plus the standing backlog spread over {@code catchUp}; without one, observed output
   * extrapolated by back-pressure.
   *
   * @param targetUtilization what the job is sized for: a blind gauge's step ({@link #HIDDEN_STEP})
   *     is in capacity
   */
  public static SourceDemand infer(
      VertexObservation source, Optional<Duration> catchUp, double targetUtilization) {
    double observed = source.observedSourceRate();
    Optional<Backlog> backlog = source.backlog().filter(b -> trusted(b, source));
    if (backlog.isPresent()) {
      Backlog b = backlog.get();
      OptionalDouble catchUpRate =
          catchUp
              .map(d -> OptionalDouble.of(Math.max(0, b.pendingAtEnd()) / (d.toMillis() / 1000.0)))
              .orElse(empty());
      // A source that never waited may have a gauge that stands (its consumer, held back, fetches
      // nothing) or hides the heads; how old its records grew says what arrives where it can.
      OptionalDouble aged =
          neverWaited(source)
              ? source.recordAge().map(a -> OptionalDouble.of(a.arrivalRate())).orElse(empty())
              : empty();
      if (aged.isPresent() && aged.getAsDouble() > b.arrivalRate()) {
        return new SourceDemand(
            source.vertexId(),
            aged.getAsDouble() + catchUpRate.orElse(0),
            SourceDemand.Basis.RECORD_AGE,
            observed,
            OptionalDouble.of(b.growthPerSecond()),
            catchUpRate,
            1,
            Optional.empty());
      }
      if (b.headsHidden() && neverWaited(source) && aged.isEmpty()) {
        // The fit shows about what was read; what arrives is more, by how much no metric says.
        double floor = Math.max(b.arrivalRate(), HIDDEN_STEP * observed * targetUtilization);
        return new SourceDemand(
            source.vertexId(),
            floor + catchUpRate.orElse(0),
            SourceDemand.Basis.BACKLOG_HIDDEN,
            observed,
            OptionalDouble.of(b.growthPerSecond()),
            catchUpRate,
            1,
            Optional.empty());
      }
      double target = Math.max(0, b.arrivalRate() + catchUpRate.orElse(0));
      return new SourceDemand(
          source.vertexId(),
          target,
          SourceDemand.Basis.BACKLOG,
          observed,
          OptionalDouble.of(b.growthPerSecond()),
          catchUpRate,
          1,
          shift(b));
    }
    double bp = source.backPressuredRatio().orElse(0);
    if (bp > VertexObservation.NEGLIGIBLE_BACKPRESSURE) {
      double factor = Math.min(MAX_EXTRAPOLATION, 1 / (1 - Math.min(bp, 0.999)));
      return new SourceDemand(
          source.vertexId(),
          observed * factor,
          SourceDemand.Basis.BACKPRESSURE_EXTRAPOLATED,
          observed,
          empty(),
          empty(),
          1,
          Optional.empty());
    }
    return new SourceDemand(
        source.vertexId(),
        observed,
        SourceDemand.Basis.OBSERVED,
        observed,
        empty(),
        empty(),
        1,
        Optional.empty());
  }

  /**
   * Whether a backlog fit says what arrives. One over a small part of the window (the gauge
   * appeared late) is too fragile to use, unless its arrival was fitted over a window's worth of
   * this load or more (earlier readings of the run, or of the run before the restart, that agreed
   * with the window's), or the source was held back: its gauge then stands while its job's buffers
   * are full (left out as stale, {@code GaugeAge}), and the readings it has still measure the
   * arrival, where extrapolating by back-pressure takes a Kafka source for one that could emit 1 /
   * (1 - back-pressure) times what it did. Replayed at Flink's defaults, that read a 300/s source
   * as 1,164/s, 629/s and 1,887/s (the fan-in's Payments, just after rescales); the short fits said
   * 303.6, 214 and 300.0.
   */
  private static boolean trusted(Backlog b, VertexObservation source) {
    return b.spanSeconds() >= MIN_BACKLOG_COVERAGE * source.seconds()
        || b.arrivalSpanSeconds() >= source.seconds()
        || source.backPressuredRatio().orElse(0) > VertexObservation.NEGLIGIBLE_BACKPRESSURE;
  }

  /**
   * The early and late arrival rates if they differ by more than {@link Backlog#STEADY_TOLERANCE}
   * of the larger, by more than the backlog gauge's own noise could make them ({@link
   * Backlog#shiftTolerance}: a lagging Kafka source's gauge is seconds stale and its halves scatter
   * by a quarter), and by a record per second: the load changed inside the window.
   */
  public static Optional<SourceDemand.Shift> shift(Backlog b) {
    if (b.earlyArrivalRate().isEmpty() || b.lateArrivalRate().isEmpty()) {
      return Optional.empty();
    }
    double early = b.earlyArrivalRate().getAsDouble();
    double late = b.lateArrivalRate().getAsDouble();
    double gap = Math.abs(late - early);
    double steady = Backlog.STEADY_TOLERANCE * Math.max(Math.abs(early), Math.abs(late));
    return gap > Math.max(steady, b.shiftTolerance()) && gap > 1
        ? Optional.of(new SourceDemand.Shift(early, late))
        : Optional.empty();
  }

  /**
   * Busy or held back nearly all the time, never waiting for records: it read what it could (or
   * what its job let it), not all there is to read. A source that waited had nothing fetched.
   */
  public static boolean neverWaited(VertexObservation source) {
    return source.busyRatio().orElse(0) + source.backPressuredRatio().orElse(0)
        >= SubtaskShares.SATURATED_BUSY;
  }

  private static OptionalDouble empty() {
    return OptionalDouble.empty();
  }
}
