package io.ds2.core.scaler;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.RateModel;
import io.ds2.core.forecast.DemandForecast;
import io.ds2.core.forecast.ForecastSizing;
import io.ds2.core.forecast.Outlook;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.options.ForecastSettings;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.DecisionPolicy;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.scaler.ScalerEvent.Problem;
import io.ds2.core.window.JobStates;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One job's scaler, framework-neutral and pure: it is given one input at a time (a poll, the answer
 * to a rescale request, an observation of a rescale in flight) with the time, and answers what
 * happened and what to do next, and when. Window collection, the DS2 model, the policy and rescale
 * tracking live here once; drivers (the CLI's loop, the operator's scheduler, what-if replays,
 * benchmarks) only carry out its actions. Not thread-safe: a driver steps one job at a time.
 */
public final class JobScaler {
  private final DecisionPolicy policy;
  private final DemandScenario demand;
  private final WindowAssembly window;
  private final Duration rescalePoll;
  private Mode mode;
  // What keyed vertices' spreads looked like at the parallelisms they ran at (model memory).
  private KeyedHistory keyedHistory = KeyedHistory.empty();
  private RescaleRun rescale;
  // What the job ran at before the rescale in flight, and whether that rescale is a rollback.
  private Map<String, Integer> beforeRescale = Map.of();
  private boolean rollingBack;
  // A rescale that applied, watched for repeated restarts until its timeout.
  private Probation probation;
  // The graph the settings were last checked against (they are checked once per graph).
  private JobGraph checked;
  // The demand forecast, unless it is off.
  private final DemandForecast forecast;
  // With a forecast: the last rescale, watched until the job caught up with what arrived meanwhile.
  private CatchUp catchUp;

  /**
   * @param rescalePoll how often a rescale in flight is observed (the actuator's {@link
   *     Actuator#pollInterval()}); also the resolution of measured downtime
   */
  public JobScaler(DecisionPolicy policy, DemandScenario demand, Mode mode, Duration rescalePoll) {
    this.policy = policy;
    this.demand = demand;
    this.mode = mode;
    this.rescalePoll = rescalePoll;
    this.window = new WindowAssembly(policy.options());
    this.forecast =
        policy.options().forecast().mode() == ForecastSettings.Mode.OFF
            ? null
            : new DemandForecast(policy.options());
  }

  public Mode mode() {
    return mode;
  }

  public DecisionPolicy policy() {
    return policy;
  }

  /**
   * The longest a window may take: a warm-up and two windows (so one restart inside is survivable)
   * plus a few polls of slack.
   */
  public static Duration maxWait(Ds2Options o) {
    return WindowAssembly.maxWait(o);
  }

  /** Continues from what an earlier instance saved. */
  public void restore(SavedState saved) {
    keyedHistory = saved.keyed();
    if (policy instanceof ScalingPolicy p) {
      saved.policy().ifPresent(p::restore);
    }
    if (forecast != null) {
      // A history counted in other buckets (the option changed) is not restored: learnt anew.
      forecast.history().restore(saved.demand());
      saved.rescales().forEach(forecast::rescaleTook);
    }
  }

  /** What an instance taking over would need (see {@link StateStore}). */
  public SavedState saved() {
    Optional<ScalingPolicy.State> state =
        policy instanceof ScalingPolicy p ? Optional.of(p.state()) : Optional.empty();
    return forecast == null
        ? new SavedState(state, keyedHistory)
        : new SavedState(
            state, keyedHistory, forecast.history().snapshot(), forecast.recentRescales());
  }

  /** The first action: poll the job for a window. */
  public Step start(Instant now) {
    return new Step(List.of(), nextWindow(now), false);
  }

  /**
   * The first action when an earlier instance left a rescale in flight: see it through before
   * deciding again (it is never requested twice).
   */
  public Step resume(Map<String, Integer> inFlight, Instant now) {
    rescale = new RescaleRun(inFlight, now, policy.options().rescaleTimeout(), rescalePoll);
    return new Step(List.of(), rescale.resume(), false);
  }

  /** Takes the result of the last action at {@code now}; returns what to do next. */
  public Step step(ScalerInput input, Instant now) {
    if (input instanceof ScalerInput.Sampled s) {
      return sampled(s, now);
    }
    if (input instanceof ScalerInput.SampleFailed f) {
      return retryLater(Problem.Kind.SAMPLING_FAILED, f.message(), now);
    }
    if (input instanceof ScalerInput.JobGone g) {
      return new Step(List.of(), new ScalerAction.Stop(now, g.why()), false);
    }
    if (rescale == null) {
      throw new IllegalStateException("no rescale in flight for " + input);
    }
    RescaleRun.Next next = rescale.take(input, now);
    if (next.action().isPresent()) {
      return new Step(List.of(), next.action().get(), false);
    }
    return finished(next.outcome().orElseThrow(), now);
  }

  private ScalerAction nextWindow(Instant at) {
    window.begin(at);
    return new ScalerAction.Sample(at, true);
  }

  private Step sampled(ScalerInput.Sampled s, Instant now) {
    if (JobStates.TERMINAL.contains(s.sample().jobState())) {
      String why = "job became " + s.sample().jobState() + " while collecting metrics";
      return new Step(List.of(), new ScalerAction.Stop(now, why), false);
    }
    if (catchUp != null && catchUp.isApplied()) {
      Optional<Duration> took = catchUp.take(s.sample(), now);
      if (took.isPresent()) {
        forecast.rescaleTook(took.get());
        catchUp = null;
      }
    }
    if (probation != null) {
      Optional<String> rollBack =
          probation.over(now) ? Optional.empty() : probation.take(s.sample());
      if (probation.over(now)) {
        probation = null;
      } else if (rollBack.isPresent()) {
        return rollBack(rollBack.get(), now);
      }
    }
    if (!window.started()) {
      window.begin(now);
    }
    WindowAssembly.Progress p = window.add(s.graph(), s.sample(), now);
    if (p instanceof WindowAssembly.TimedOut t) {
      return retryLater(Problem.Kind.NO_CLEAN_WINDOW, t.message(), now);
    }
    if (p instanceof WindowAssembly.Filling f) {
      List<ScalerEvent> events = new ArrayList<>(2);
      if (f.dropped() != null) {
        events.add(new ScalerEvent.SamplesDropped(f.dropped(), f.detail()));
      }
      events.add(new ScalerEvent.Waiting(f.collected(), policy.options().window(), f.status()));
      // Fixed rate: the next poll is due an interval after this one, however long it took.
      Instant next = s.sample().time().plus(policy.options().sampleInterval());
      return new Step(
          events, new ScalerAction.Sample(next.isBefore(now) ? now : next, false), false);
    }
    return decide(s, ((WindowAssembly.Ready) p), now);
  }

  private Step decide(ScalerInput.Sampled s, WindowAssembly.Ready ready, Instant now) {
    Estimate estimate =
        RateModel.estimateFor(
            s.graph(), ready.window(), demand, policy.estimateOptions(), keyedHistory);
    keyedHistory = estimate.keyedHistory();
    List<ScalerEvent> events = new ArrayList<>(3);
    Optional<Duration> forecastLead = Optional.empty();
    if (forecast != null) {
      Ahead ahead = ahead(s.graph(), ready, estimate, now, events);
      estimate = ahead.estimate();
      forecastLead = ahead.lead();
    }
    Decision decision = policy.decide(s.graph(), estimate, s.capacity(), forecastLead, now);
    if (s.graph() != checked) {
      checked = s.graph();
      unknownSources(s.graph())
          .ifPresent(m -> events.add(new Problem(Problem.Kind.SETTING_IGNORED, m, Duration.ZERO)));
    }
    events.add(new ScalerEvent.Decided(decision, mode));
    if (decision.action() instanceof Action.Rescale r && mode == Mode.ACT) {
      beforeRescale = parallelismOf(s);
      if (forecast != null) {
        if (catchUp != null && catchUp.isApplied()) {
          forecast.rescaleTook(catchUp.soFar(now)); // not caught up yet: at least this long
        }
        catchUp = CatchUp.of(estimate, now).orElse(null);
      }
      rescale =
          new RescaleRun(r.parallelism(), now, policy.options().rescaleTimeout(), rescalePoll);
      return new Step(events, rescale.request(), true);
    }
    return new Step(events, nextWindow(now), true);
  }

  /**
   * The estimate to decide on, and how far ahead a forecast that acts looked for it (empty: none
   * did, or it only advises).
   */
  private record Ahead(Estimate estimate, Optional<Duration> lead) {}

  /**
   * Learns the window's demand and asks the forecast what lies ahead; reports it, and returns the
   * estimate to decide on: raised ahead of a forecast rise when the forecast acts, else as
   * measured.
   */
  private Ahead ahead(
      JobGraph graph,
      WindowAssembly.Ready ready,
      Estimate measured,
      Instant now,
      List<ScalerEvent> events) {
    DemandForecast.Look look =
        forecast.look(
            graph, ready.window(), measured, demand, policy.estimateOptions(), keyedHistory, now);
    boolean acts = forecast.settings().mode() == ForecastSettings.Mode.ACT;
    Optional<Duration> lead =
        acts && look.outlook() instanceof Outlook.Ahead a
            ? Optional.of(a.lead())
            : Optional.empty();
    Map<String, Integer> need = ForecastSizing.parallelism(measured);
    if (look.raised().isEmpty()) {
      events.add(new ScalerEvent.Forecasted(look.outlook(), need, Map.of(), false));
      return new Ahead(measured, lead);
    }
    Estimate raised = look.raised().get();
    events.add(
        new ScalerEvent.Forecasted(look.outlook(), need, ForecastSizing.parallelism(raised), acts));
    return new Ahead(acts ? raised : measured, lead);
  }

  /** The split counts given for vertices that are no source of {@code graph}, said in one line. */
  private java.util.Optional<String> unknownSources(JobGraph graph) {
    List<String> unknown =
        demand.sourceSplits().keySet().stream()
            .filter(
                k ->
                    graph.sources().stream().noneMatch(v -> v.id().equals(k) || v.name().equals(k)))
            .sorted()
            .toList();
    if (unknown.isEmpty()) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        "source-splits names "
            + unknown.stream()
                .map(k -> "'" + k + "'")
                .collect(java.util.stream.Collectors.joining(", "))
            + ", which is not a source vertex of the job (sources: "
            + graph.sources().stream()
                .map(v -> "'" + v.name() + "'")
                .collect(java.util.stream.Collectors.joining(", "))
            + "); ignored");
  }

  /** Puts the parallelism from before the last rescale back; backs off once that is over. */
  private Step rollBack(String why, Instant now) {
    Map<String, Integer> before = probation.before();
    probation = null;
    catchUp = null; // a rescale taken back says nothing of how long one takes
    rollingBack = true;
    beforeRescale = Map.of();
    rescale = new RescaleRun(before, now, policy.options().rescaleTimeout(), rescalePoll);
    return new Step(
        List.of(new Problem(Problem.Kind.ROLLED_BACK, why, Duration.ZERO)),
        rescale.request(),
        true);
  }

  private static Map<String, Integer> parallelismOf(ScalerInput.Sampled s) {
    Map<String, Integer> p = new java.util.LinkedHashMap<>();
    s.sample().vertices().forEach((id, v) -> p.put(id, v.parallelism()));
    return p;
  }

  private Step finished(RescaleOutcome outcome, Instant now) {
    List<ScalerEvent> events = new ArrayList<>(2);
    events.add(new ScalerEvent.Rescaled(rescale.requested(), outcome));
    Instant requestedAt = rescale.request().at();
    rescale = null;
    if (rollingBack) {
      // Whatever became of the rollback, the target it undid failed: back off from it.
      rollingBack = false;
      policy.rescaleNotApplied(now);
    } else if (outcome instanceof RescaleOutcome.Applied a) {
      if (catchUp != null) {
        catchUp.applied(
            a.took(), a.downtime(), requestedAt.plus(policy.options().rescaleTimeout()));
      } else if (forecast != null) {
        forecast.rescaleTook(a.took());
      }
      if (!beforeRescale.isEmpty()) {
        probation =
            new Probation(
                beforeRescale,
                a.parallelism(),
                requestedAt.plus(policy.options().rescaleTimeout()));
      }
      policy.rescaleApplied();
    } else if (outcome instanceof RescaleOutcome.Unsupported u) {
      catchUp = null;
      mode = Mode.ADVISOR;
      events.add(
          new Problem(
              Problem.Kind.NOW_ADVISING,
              u.message() + "; continuing in advisor mode (decisions only)",
              Duration.ZERO));
    } else if (!(outcome instanceof RescaleOutcome.NotApplied n
        && n.cause() == RescaleOutcome.Cause.BUSY)) {
      catchUp = null;
      policy.rescaleNotApplied(now); // unmet or refused: back off, never storm
    } else {
      catchUp = null;
    }
    return new Step(events, nextWindow(now), true);
  }

  /** A problem the loop survives: report it, wait a window, start a new window. */
  private Step retryLater(Problem.Kind kind, String message, Instant now) {
    Duration wait = policy.options().window();
    return new Step(List.of(new Problem(kind, message, wait)), nextWindow(now.plus(wait)), false);
  }
}
