package io.ds2.core.forecast;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.RateModel;
import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.options.ForecastSettings;
import io.ds2.core.window.ObservationWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One job's demand forecast: learns each source's measured arrival rate (by vertex name, so it
 * survives a changed graph), and says what it will be over the lead time — how long a rescale takes
 * to pay off: the job's own recent rescale time (from request to caught up with what arrived
 * meanwhile), the warm-up and the windows a change must persist. The fit is redone once per history
 * step, not per decision, and its smoothing weights chosen once a day ({@link KeptWeights}); a
 * weekly season is tried once two weeks are kept ({@link SeasonalForecaster}). Pure: time is given.
 */
public final class DemandForecast {
  // Rescales remembered for the lead time (the longest of them counts).
  private static final int RESCALES = 3;

  private final ForecastSettings settings;
  private final Duration window;
  private final Duration warmUp;
  private final int activation;
  private final DemandHistory history;
  private final SeasonalForecaster forecaster;
  private final Deque<Duration> rescales = new ArrayDeque<>(RESCALES);
  // The last fit, per source, and the history step it was made at.
  private final Map<String, SeasonalForecaster.Result> fits = new LinkedHashMap<>();
  private Instant fittedAt;
  // Per source, the smoothing weights chosen once a day (not at every step).
  private final Map<String, KeptWeights> weights = new LinkedHashMap<>();

  public DemandForecast(Ds2Options options) {
    this.settings = options.forecast();
    this.window = options.window();
    this.warmUp = options.warmUp();
    this.activation = options.activation();
    this.history = new DemandHistory(settings.bucket(), settings.historySteps());
    this.forecaster =
        new SeasonalForecaster(settings.periodSteps(), settings.recentSteps(), settings.maxError());
  }

  public ForecastSettings settings() {
    return settings;
  }

  public DemandHistory history() {
    return history;
  }

  /**
   * Learns what arrived at each source in a window decided at {@code now}: over the window's own
   * span (the minutes it measured), not at the decision's instant.
   */
  public void learn(JobGraph graph, Estimate measured, Instant now) {
    Instant from = measured.window().start();
    Instant to = measured.window().end();
    for (SourceDemand d : measured.demands().values()) {
      if (d.basis() == SourceDemand.Basis.BACKLOG_HIDDEN) {
        continue; // a step above what was read, not what arrived: no history to learn from
      }
      graph
          .vertex(d.vertexId())
          .ifPresent(
              v -> {
                if (to.isAfter(from)) {
                  history.add(v.name(), from, to, d.currentRate());
                } else {
                  history.add(v.name(), now, d.currentRate());
                }
              });
    }
  }

  /**
   * A rescale that took {@code took}, from its request to the job caught up with what arrived
   * meanwhile (to running where that was not measured): the lead time follows it.
   */
  public void rescaleTook(Duration took) {
    if (rescales.size() == RESCALES) {
      rescales.removeFirst();
    }
    rescales.addLast(took);
  }

  /** The recent rescale times the lead time follows, oldest first (to be saved). */
  public List<Duration> recentRescales() {
    return List.copyOf(rescales);
  }

  /**
   * How far ahead to look: the longest recent rescale (a window before any was seen), a warm-up
   * (the first window after a rescale waits for it) and the windows a change must persist before
   * the policy makes it ({@code activation}): a rise first seen a window before the lead time ends
   * would be acted on a window too late, as on the diurnal benchmark, where the forecast's raise
   * showed at the ramp's start and waited a window ({@code ACTIVATING}) with the Join short.
   */
  public Duration lead() {
    Duration rescale = rescales.stream().max(Duration::compareTo).orElse(window);
    return rescale.plus(warmUp).plus(window.multipliedBy(activation));
  }

  /**
   * What the forecast says of a window decided at {@code now}, and where it rises above the
   * measured demand by more than its error, the estimate sized for it too.
   *
   * @param raised {@code measured} with every vertex raised to what the forecast needs within the
   *     lead time (never lowered: a scale-down the measurements ask for stands, waiting out the
   *     scale-down delay as any does); empty where the forecast has nothing to add
   */
  public record Look(Outlook outlook, Optional<Estimate> raised) {}

  /**
   * Learns the window's demand, then looks ahead: the outlook, and the estimate at the forecast
   * demand where it is higher (a second DS2 estimate over the same window).
   */
  public Look look(
      JobGraph graph,
      ObservationWindow window,
      Estimate measured,
      DemandScenario demand,
      Ds2Options estimateOptions,
      KeyedHistory keyed,
      Instant now) {
    learn(graph, measured, now);
    Outlook outlook = outlook(graph, measured, now);
    if (!(outlook instanceof Outlook.Ahead a)) {
      return new Look(outlook, Optional.empty());
    }
    Estimate result = measured;
    Optional<DemandScenario> higher = ForecastSizing.demand(graph, demand, a);
    if (higher.isPresent()) {
      Estimate ahead = RateModel.estimateFor(graph, window, higher.get(), estimateOptions, keyed);
      result = ForecastSizing.raise(graph, measured, ahead, a);
    }
    return new Look(outlook, result == measured ? Optional.empty() : Optional.of(result));
  }

  /** What the forecast says for the sources of {@code graph} at {@code now}. */
  public Outlook outlook(JobGraph graph, Estimate measured, Instant now) {
    Instant step = history.bucketStart(now);
    if (!step.equals(fittedAt)) {
      fits.clear();
      fittedAt = step;
    }
    Duration lead = lead();
    int steps = steps(step, now, lead);
    Map<String, Double> current = new LinkedHashMap<>();
    Map<String, Double> peak = new LinkedHashMap<>();
    Set<String> weekly = new HashSet<>();
    double error = 0;
    for (Vertex v : graph.sources()) {
      SourceDemand d = measured.demands().get(v.id());
      if (d == null) {
        continue;
      }
      long index = step.toEpochMilli() / settings.bucket().toMillis();
      SeasonalForecaster.Result r =
          fits.computeIfAbsent(
              v.name(),
              n ->
                  forecaster.forecast(
                      history.series(n, now),
                      settings.periodSteps(),
                      weights.computeIfAbsent(
                          n,
                          k ->
                              new KeptWeights(
                                  settings.periodSteps(),
                                  KeptWeights.offsetOf(k, settings.periodSteps()))),
                      index));
      if (r instanceof SeasonalForecaster.NoForecast none) {
        return new Outlook.None(none.reason(), v.name(), none.message());
      }
      SeasonalForecaster.Forecast f = (SeasonalForecaster.Forecast) r;
      current.put(v.name(), d.currentRate());
      peak.put(v.name(), f.peak(steps));
      if (f.season() == SeasonalForecaster.Season.WEEKLY) {
        weekly.add(v.name());
      }
      error = Math.max(error, Math.max(f.holdoutError(), f.recentError()));
    }
    if (peak.isEmpty()) {
      return new Outlook.None(
          SeasonalForecaster.Reason.NOT_ENOUGH_HISTORY, "", "no source demand measured");
    }
    return new Outlook.Ahead(lead, current, peak, error, weekly);
  }

  /** The history steps from the one {@code now} is in to {@code ahead} after it, at least one. */
  private int steps(Instant step, Instant now, Duration ahead) {
    long bucket = settings.bucket().toMillis();
    return (int)
        Math.max(1, (Duration.between(step, now).plus(ahead).toMillis() + bucket - 1) / bucket);
  }
}
