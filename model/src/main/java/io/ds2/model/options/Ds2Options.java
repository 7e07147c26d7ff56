package io.ds2.model.options;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * Every tunable of ds2 in one place: name, default and meaning. The CLI flags, the README table and
 * (later) Kubernetes annotations all come from {@link #SPECS}.
 *
 * @param window how long one observation window lasts (DS2's policy interval)
 * @param warmUp how long after a job (re)start or rescale metrics are ignored
 * @param sampleInterval how often Flink's REST API is polled while a window fills
 * @param targetUtilization the busy fraction each instance is sized for; 1.0 is pure DS2
 * @param minParallelism the lowest parallelism ever recommended
 * @param maxParallelism the highest parallelism recommended, if set (vertex max parallelism always
 *     applies)
 * @param catchUp if set, size sources' demand to also drain the standing backlog within this time
 */
public record Ds2Options(
    Duration window,
    Duration warmUp,
    Duration sampleInterval,
    double targetUtilization,
    int minParallelism,
    OptionalInt maxParallelism,
    Optional<Duration> catchUp) {

  public static final String WINDOW = "window";
  public static final String WARM_UP = "warm-up";
  public static final String SAMPLE_INTERVAL = "sample-interval";
  public static final String TARGET_UTILIZATION = "target-utilization";
  public static final String MIN_PARALLELISM = "min-parallelism";
  public static final String MAX_PARALLELISM = "max-parallelism";
  public static final String CATCH_UP = "catch-up";

  /** The documented options, in the order the README lists them. */
  public static final List<OptionSpec> SPECS =
      List.of(
          new OptionSpec(
              WINDOW,
              "30s",
              "Length of one observation window; rates are counter deltas over it (10s or more)."),
          new OptionSpec(
              WARM_UP,
              "30s",
              "Metrics this soon after a job (re)start or rescale are ignored (start-up bursts)."),
          new OptionSpec(
              SAMPLE_INTERVAL,
              "2s",
              "How often Flink's REST API is polled; bounds the error of window timestamps."),
          new OptionSpec(
              TARGET_UTILIZATION,
              "1.0",
              "Busy fraction each instance is sized for, in (0, 1]; 1.0 is pure DS2."),
          new OptionSpec(MIN_PARALLELISM, "1", "Lowest parallelism ever recommended."),
          new OptionSpec(
              MAX_PARALLELISM,
              "none",
              "Highest parallelism recommended; a vertex's max parallelism always applies."),
          new OptionSpec(
              CATCH_UP,
              "none",
              "If set, sources' demand also drains the standing backlog within this time."));

  public Ds2Options {
    if (window.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new InvalidOptionException(WINDOW, Durations.format(window), "must be at least 1s");
    }
    if (sampleInterval.isNegative() || sampleInterval.isZero()) {
      throw new InvalidOptionException(
          SAMPLE_INTERVAL, Durations.format(sampleInterval), "must be positive");
    }
    if (warmUp.isNegative()) {
      throw new InvalidOptionException(WARM_UP, Durations.format(warmUp), "must not be negative");
    }
    if (!(targetUtilization > 0 && targetUtilization <= 1)) {
      throw new InvalidOptionException(
          TARGET_UTILIZATION, String.valueOf(targetUtilization), "must be in (0, 1]");
    }
    if (minParallelism < 1) {
      throw new InvalidOptionException(
          MIN_PARALLELISM, String.valueOf(minParallelism), "must be >= 1");
    }
    if (maxParallelism.isPresent() && maxParallelism.getAsInt() < minParallelism) {
      throw new InvalidOptionException(
          MAX_PARALLELISM,
          String.valueOf(maxParallelism.getAsInt()),
          "must be >= min-parallelism (" + minParallelism + ")");
    }
    if (catchUp.isPresent() && (catchUp.get().isNegative() || catchUp.get().isZero())) {
      throw new InvalidOptionException(
          CATCH_UP, Durations.format(catchUp.get()), "must be positive");
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
        optional(v, CATCH_UP, Durations::parse));
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
