package io.ds2.core.options;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * Every tunable of ds2 in one place: name, default and meaning. The CLI flags, the table in
 * docs/options.md and (later) Kubernetes annotations all come from {@link #SPECS}; values are
 * parsed and checked here only. Defaults suit production; tests shorten the durations.
 *
 * @param window length of one observation window (DS2's policy interval)
 * @param warmUp how long after a job (re)start or rescale metrics are ignored
 * @param sampleInterval how often Flink's REST API is polled while a window fills
 * @param targetUtilization the busy fraction each instance is sized for; 1.0 is pure DS2
 * @param minParallelism the lowest parallelism ever recommended
 * @param maxParallelism the highest parallelism recommended, if set
 * @param catchUp if set, size sources' demand to also drain the standing backlog within this time
 * @param activation consecutive windows a change must persist before the loop acts
 * @param scaleDownDelay how long recommendations must stay below the current parallelism before
 *     scaling down, to the highest of them
 * @param scaleDownThreshold scale-downs by less than this fraction are ignored
 * @param scaleUpTolerance share of the headroom above the target utilization a vertex's busiest
 *     subtask may use at its current parallelism before a scale-up
 * @param maxStepUp the largest factor one step may raise a vertex's parallelism by
 * @param maxStepDown the largest factor one step may lower it by
 * @param alignKeyed round keyed vertices up to a divisor of their max parallelism
 * @param efficiencyTolerance per-record cost growth (relative) beyond which scaling counts as
 *     sub-linear and the learned curve is used
 * @param rescaleTimeout how long a rescale may take to show in the job before it counts as unmet
 * @param rescaleBackoff how long to wait after an unmet rescale before trying again
 * @param maxSlots the most task slots the job may use, if set (a quota, a cluster share); the slots
 *     the cluster reports cap it further
 * @param capacityShortfall when the job falls behind with every vertex sized and none saturated,
 *     hold and size later windows for the busy ratio it showed (off by default: see the spec)
 */
public record Ds2Options(
    Duration window,
    Duration warmUp,
    Duration sampleInterval,
    double targetUtilization,
    int minParallelism,
    OptionalInt maxParallelism,
    Optional<Duration> catchUp,
    int activation,
    Duration scaleDownDelay,
    double scaleDownThreshold,
    double scaleUpTolerance,
    double maxStepUp,
    double maxStepDown,
    boolean alignKeyed,
    double efficiencyTolerance,
    Duration rescaleTimeout,
    Duration rescaleBackoff,
    OptionalInt maxSlots,
    boolean capacityShortfall,
    ForecastSettings forecast) {

  public static final String WINDOW = "window";
  public static final String WARM_UP = "warm-up";
  public static final String SAMPLE_INTERVAL = "sample-interval";
  public static final String TARGET_UTILIZATION = "target-utilization";
  public static final String MIN_PARALLELISM = "min-parallelism";
  public static final String MAX_PARALLELISM = "max-parallelism";
  public static final String MAX_SLOTS = "max-slots";
  public static final String CATCH_UP = "catch-up";
  public static final String ACTIVATION = "activation";
  public static final String SCALE_DOWN_DELAY = "scale-down-delay";
  public static final String SCALE_DOWN_THRESHOLD = "scale-down-threshold";
  public static final String SCALE_UP_TOLERANCE = "scale-up-tolerance";
  public static final String MAX_STEP_UP = "max-step-up";
  public static final String MAX_STEP_DOWN = "max-step-down";
  public static final String ALIGN_KEYED = "align-keyed";
  public static final String EFFICIENCY_TOLERANCE = "efficiency-tolerance";
  public static final String RESCALE_TIMEOUT = "rescale-timeout";
  public static final String RESCALE_BACKOFF = "rescale-backoff";
  public static final String CAPACITY_SHORTFALL = "capacity-shortfall";
  public static final String FORECAST = "forecast";
  public static final String FORECAST_PERIOD = "forecast-period";
  public static final String FORECAST_BUCKET = "forecast-bucket";
  public static final String FORECAST_MAX_ERROR = "forecast-max-error";

  /** The documented options, in the order docs/options.md lists them. */
  public static final List<OptionSpec> SPECS =
      List.of(
          spec(
              WINDOW,
              "30s",
              "Length of one observation window; rates are counter deltas over it"
                  + "; it spans at least one of Flink's metric refreshes (10s by default) whatever is"
                  + " asked."),
          spec(
              WARM_UP,
              "30s",
              "Metrics this soon after a job (re)start or rescale are ignored"
                  + " (start-up bursts)."),
          spec(SAMPLE_INTERVAL, "2s", "How often Flink's REST API is polled while a window fills."),
          spec(
              TARGET_UTILIZATION,
              "1.0",
              "Busy fraction each instance is sized for, in (0, 1];" + " 1.0 is pure DS2."),
          spec(MIN_PARALLELISM, "1", "Lowest parallelism ever recommended."),
          spec(
              MAX_PARALLELISM,
              "none",
              "Highest parallelism recommended; a vertex's max" + " parallelism always applies."),
          spec(
              CATCH_UP,
              "none",
              "If set, sources' demand also drains the standing backlog within" + " this time."),
          spec(
              ACTIVATION,
              "2",
              "Consecutive windows a change must persist in the same direction"
                  + " before the loop acts; it then makes the smallest of those changes."),
          spec(
              SCALE_DOWN_DELAY,
              "5m",
              "Recommendations must stay below the current parallelism"
                  + " this long before a scale-down, which goes to the highest of them."),
          spec(
              SCALE_DOWN_THRESHOLD,
              "0.2",
              "Scale-downs by less than this fraction of the current"
                  + " parallelism are ignored."),
          spec(
              SCALE_UP_TOLERANCE,
              "0.1",
              "Share of the headroom above the target utilization (1 - target) a vertex's busiest"
                  + " subtask may use at its current parallelism before it is scaled up: at 0.7,"
                  + " up to 0.73 busy; 0 scales up at any excess; at 1.0 there is no headroom."),
          spec(
              MAX_STEP_UP,
              "32",
              "Largest factor one rescale may raise a vertex's parallelism by (a guard against a"
                  + " wild measurement; DS2's word count rightly goes from 1 to 20)."),
          spec(
              MAX_STEP_DOWN,
              "2",
              "Largest factor one rescale may lower a vertex's parallelism" + " by."),
          spec(
              ALIGN_KEYED,
              "false",
              "Round keyed vertices up to a divisor of their max parallelism at which the busiest"
                  + " subtask keeps up, for even state per subtask (keeping up does not need"
                  + " it)."),
          spec(
              EFFICIENCY_TOLERANCE,
              "0.05",
              "Per-record cost growth between measured"
                  + " parallelisms beyond which scaling counts as sub-linear and the learned cost"
                  + " curve sizes the vertex."),
          spec(
              RESCALE_TIMEOUT,
              "3m",
              "How long a rescale may take to show in the running job"
                  + " (cooldown, checkpoint) before it counts as unmet and is put back; a job"
                  + " that restarts twice within it after the rescale applied is rolled back"
                  + " too; and the longest a restart behind its sources' heads is waited out"
                  + " before its windows start."),
          spec(
              RESCALE_BACKOFF,
              "10m",
              "After an unmet rescale, how long to wait before trying again; doubled"
                  + " for each unmet rescale in a row, up to 8 times."),
          spec(
              MAX_SLOTS,
              "none",
              "Most task slots the job may use (its largest vertex parallelism, under slot"
                  + " sharing); the slots the cluster reports cap it too."),
          spec(
              CAPACITY_SHORTFALL,
              "false",
              "When the job falls behind although every vertex is sized and none saturated (busy"
                  + " time overstates capacity), hold and size later windows for the busy ratio it"
                  + " showed. Built on a bench with tiny network buffers; at Flink's defaults it"
                  + " never held a decision in our runs, so it is off unless asked for."),
          spec(
              FORECAST,
              "off",
              "Forecast recurring load (Holt-Winters over each source's demand history): off;"
                  + " advise (show the forecast and what it would need, change nothing); act"
                  + " (scale up ahead of a forecast rise by the job's rescale time; scale-downs"
                  + " only from measurements)."),
          spec(
              FORECAST_PERIOD,
              "24h",
              "The load's season; nothing is forecast before a period to learn from and one"
                  + " to test on were seen."),
          spec(FORECAST_BUCKET, "5m", "A step of the demand history (two weeks of them are kept)."),
          spec(
              FORECAST_MAX_ERROR,
              "0.15",
              "Largest error, as a share of the demand, at which a forecast is trusted (over a"
                  + " held-out period, and over the latest hour or eighth of a period if"
                  + " shorter); above it ds2 is reactive and says why."));

  private static OptionSpec spec(String name, String defaultValue, String meaning) {
    return new OptionSpec(name, defaultValue, meaning);
  }

  public Ds2Options {
    Checks.atLeast(WINDOW, window, Duration.ofSeconds(1));
    Checks.atLeast(SAMPLE_INTERVAL, sampleInterval, Duration.ofMillis(1));
    Checks.atLeast(WARM_UP, warmUp, Duration.ZERO);
    Checks.atLeast(SCALE_DOWN_DELAY, scaleDownDelay, Duration.ZERO);
    Checks.atLeast(RESCALE_TIMEOUT, rescaleTimeout, Duration.ofSeconds(1));
    Checks.atLeast(RESCALE_BACKOFF, rescaleBackoff, Duration.ZERO);
    catchUp.ifPresent(d -> Checks.atLeast(CATCH_UP, d, Duration.ofMillis(1)));
    Checks.range(TARGET_UTILIZATION, targetUtilization, 0, false, 1, "must be in (0, 1]");
    Checks.range(SCALE_DOWN_THRESHOLD, scaleDownThreshold, 0, true, 1, "must be in [0, 1]");
    Checks.range(SCALE_UP_TOLERANCE, scaleUpTolerance, 0, true, 1, "must be in [0, 1]");
    Checks.range(EFFICIENCY_TOLERANCE, efficiencyTolerance, 0, true, 10, "must be in [0, 10]");
    Checks.range(MAX_STEP_UP, maxStepUp, 1, true, 1e6, "must be >= 1");
    Checks.range(MAX_STEP_DOWN, maxStepDown, 1, true, 1e6, "must be >= 1");
    Checks.range(MIN_PARALLELISM, minParallelism, 1, true, 1e9, "must be >= 1");
    Checks.range(ACTIVATION, activation, 1, true, 1000, "must be between 1 and 1000");
    if (maxSlots.isPresent() && maxSlots.getAsInt() < 1) {
      throw new InvalidOptionException(
          MAX_SLOTS, String.valueOf(maxSlots.getAsInt()), "must be >= 1");
    }
    if (maxParallelism.isPresent() && maxParallelism.getAsInt() < minParallelism) {
      throw new InvalidOptionException(
          MAX_PARALLELISM,
          String.valueOf(maxParallelism.getAsInt()),
          "must be >= min-parallelism (" + minParallelism + ")");
    }
  }

  public static Ds2Options defaults() {
    return fromMap(Map.of());
  }

  /**
   * Builds options from user-typed values keyed by option name; absent names take their default.
   *
   * @throws InvalidOptionException naming the first bad option, or an unknown name
   */
  public static Ds2Options fromMap(Map<String, String> given) {
    Map<String, String> v = new HashMap<>();
    SPECS.forEach(s -> v.put(s.name(), s.defaultValue()));
    for (Map.Entry<String, String> e : given.entrySet()) {
      if (!v.containsKey(e.getKey())) {
        throw new InvalidOptionException(e.getKey(), e.getValue(), "unknown option");
      }
      v.put(e.getKey(), e.getValue());
    }
    try {
      return build(v);
    } catch (InvalidOptionException e) {
      // Range checks see parsed values; tell the user what they typed.
      throw new InvalidOptionException(e.option(), v.get(e.option()), e.rule());
    }
  }

  /** A copy with some options replaced, by name (e.g. per-job overrides). */
  public Ds2Options with(Map<String, String> overrides) {
    Map<String, String> all = new HashMap<>(asMap());
    all.putAll(overrides);
    return fromMap(all);
  }

  /** Every option as the user would type it. */
  public Map<String, String> asMap() {
    Map<String, String> m = new HashMap<>();
    m.put(WINDOW, Durations.format(window));
    m.put(WARM_UP, Durations.format(warmUp));
    m.put(SAMPLE_INTERVAL, Durations.format(sampleInterval));
    m.put(TARGET_UTILIZATION, String.valueOf(targetUtilization));
    m.put(MIN_PARALLELISM, String.valueOf(minParallelism));
    m.put(MAX_PARALLELISM, maxParallelism.isPresent() ? "" + maxParallelism.getAsInt() : "none");
    m.put(CATCH_UP, catchUp.map(Durations::format).orElse("none"));
    m.put(ACTIVATION, String.valueOf(activation));
    m.put(SCALE_DOWN_DELAY, Durations.format(scaleDownDelay));
    m.put(SCALE_DOWN_THRESHOLD, String.valueOf(scaleDownThreshold));
    m.put(SCALE_UP_TOLERANCE, String.valueOf(scaleUpTolerance));
    m.put(MAX_STEP_UP, String.valueOf(maxStepUp));
    m.put(MAX_STEP_DOWN, String.valueOf(maxStepDown));
    m.put(ALIGN_KEYED, String.valueOf(alignKeyed));
    m.put(EFFICIENCY_TOLERANCE, String.valueOf(efficiencyTolerance));
    m.put(RESCALE_TIMEOUT, Durations.format(rescaleTimeout));
    m.put(RESCALE_BACKOFF, Durations.format(rescaleBackoff));
    m.put(MAX_SLOTS, maxSlots.isPresent() ? "" + maxSlots.getAsInt() : "none");
    m.put(CAPACITY_SHORTFALL, String.valueOf(capacityShortfall));
    m.put(FORECAST, forecast.mode().name().toLowerCase(java.util.Locale.ROOT));
    m.put(FORECAST_PERIOD, Durations.format(forecast.period()));
    m.put(FORECAST_BUCKET, Durations.format(forecast.bucket()));
    m.put(FORECAST_MAX_ERROR, String.valueOf(forecast.maxError()));
    return m;
  }

  private static Ds2Options build(Map<String, String> v) {
    return new Ds2Options(
        parse(v, WINDOW, Durations::parse),
        parse(v, WARM_UP, Durations::parse),
        parse(v, SAMPLE_INTERVAL, Durations::parse),
        parse(v, TARGET_UTILIZATION, Double::parseDouble),
        parse(v, MIN_PARALLELISM, Integer::parseInt),
        optional(v, MAX_PARALLELISM, Integer::parseInt)
            .map(OptionalInt::of)
            .orElse(OptionalInt.empty()),
        optional(v, CATCH_UP, Durations::parse),
        parse(v, ACTIVATION, Integer::parseInt),
        parse(v, SCALE_DOWN_DELAY, Durations::parse),
        parse(v, SCALE_DOWN_THRESHOLD, Double::parseDouble),
        parse(v, SCALE_UP_TOLERANCE, Double::parseDouble),
        parse(v, MAX_STEP_UP, Double::parseDouble),
        parse(v, MAX_STEP_DOWN, Double::parseDouble),
        parse(v, ALIGN_KEYED, Checks::parseBoolean),
        parse(v, EFFICIENCY_TOLERANCE, Double::parseDouble),
        parse(v, RESCALE_TIMEOUT, Durations::parse),
        parse(v, RESCALE_BACKOFF, Durations::parse),
        optional(v, MAX_SLOTS, Integer::parseInt).map(OptionalInt::of).orElse(OptionalInt.empty()),
        parse(v, CAPACITY_SHORTFALL, Checks::parseBoolean),
        new ForecastSettings(
            parse(v, FORECAST, ForecastSettings::mode),
            parse(v, FORECAST_PERIOD, Durations::parse),
            parse(v, FORECAST_BUCKET, Durations::parse),
            parse(v, FORECAST_MAX_ERROR, Double::parseDouble)));
  }

  private static <T> T parse(Map<String, String> values, String name, Function<String, T> f) {
    String text = values.get(name);
    try {
      return f.apply(text.trim());
    } catch (RuntimeException e) {
      String why = e instanceof NumberFormatException ? "not a number" : e.getMessage();
      throw new InvalidOptionException(name, text, why);
    }
  }

  private static <T> Optional<T> optional(
      Map<String, String> values, String name, Function<String, T> f) {
    String text = values.get(name);
    return "none".equalsIgnoreCase(text.trim())
        ? Optional.empty()
        : Optional.of(parse(values, name, f));
  }
}
