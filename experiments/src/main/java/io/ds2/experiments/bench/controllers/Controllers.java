package io.ds2.experiments.bench.controllers;

import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.experiments.bench.BenchController;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The controllers a suite compares, with matched settings. */
public final class Controllers {
  /**
   * Windows every controller observes with: 10 s windows polled every 500 ms after a 5 s warm-up,
   * acting on the first window that asks (activation 1), as the protocol's Flink-dynamic workload;
   * ds2's scale-down delay shortened to 30 s to fit the runs.
   */
  public static final Map<String, String> MATCHED =
      Map.of(
          Ds2Options.WINDOW, "10s",
          Ds2Options.WARM_UP, "5s",
          Ds2Options.SAMPLE_INTERVAL, "500ms",
          Ds2Options.ACTIVATION, "1",
          Ds2Options.SCALE_DOWN_DELAY, "30s",
          Ds2Options.RESCALE_TIMEOUT, "60s");

  /**
   * The target utilization every controller is given in the common-target comparison: the one in
   * the Flink autoscaler's documented configuration example ({@link
   * FlinkAutoscaler110#documented}).
   */
  public static final String COMMON_TARGET = "0.6";

  /** Suffix of a controller run at {@link #COMMON_TARGET} instead of its matched 1.0. */
  public static final String AT_COMMON_TARGET = "-u" + COMMON_TARGET;

  /** ds2 at its own defaults (30 s windows, activation 2, 5 min scale-down delay): long runs. */
  public static final String DEFAULTS = "ds2-defaults";

  private Controllers() {}

  /** The default suite's controllers; {@code flink-as-1.10} (its defaults) is run on its own. */
  public static List<String> names() {
    return List.of("ds2", "ds2-paper", "flink-as-1.10-matched");
  }

  /** The Flink autoscaler at its documentation's configuration example. */
  public static final String FLINK_DOCUMENTED = "flink-as-1.10-doc";

  /**
   * The controllers of the common-target comparison, each at {@link #COMMON_TARGET}: the Flink
   * autoscaler at its documented example, ds2 at its defaults, the DS2 paper's policy at the
   * matched windows; and each matched controller at that target.
   */
  public static List<String> atCommonTarget() {
    List<String> matched =
        names().stream().map(n -> n.replace("-matched", "") + AT_COMMON_TARGET).toList();
    return java.util.stream.Stream.concat(
            java.util.stream.Stream.of(FLINK_DOCUMENTED, DEFAULTS + AT_COMMON_TARGET),
            matched.stream())
        .toList();
  }

  /**
   * ds2 at its defaults acting on its forecast, learning the diurnal scenario's compressed days (a
   * 20 min period in 1 min steps).
   */
  public static final String FORECAST = "ds2-forecast";

  private static final Map<String, String> FORECAST_OPTIONS =
      Map.of(
          Ds2Options.FORECAST, "act",
          Ds2Options.FORECAST_PERIOD, "20m",
          Ds2Options.FORECAST_BUCKET, "1m");

  /** The DS2 paper's policy at ds2's default windows (30 s, activation 2): the same code. */
  public static final String PAPER_DEFAULTS = "ds2-paper-defaults";

  // A controller at another target utilization: its name, then -u and the target (ds2-u0.7).
  private static final Pattern AT_TARGET = Pattern.compile("(.+)-u(0\\.\\d+|1\\.0)");

  public static BenchController byName(String name) {
    Matcher m = AT_TARGET.matcher(name);
    if (m.matches()) {
      return atTarget(name, m.group(1), m.group(2));
    }
    Ds2Options o = Ds2Options.fromMap(MATCHED);
    return switch (name) {
      case "ds2" -> new LoopController("ds2", () -> new ScalingPolicy(o));
      case DEFAULTS -> new LoopController(DEFAULTS, () -> new ScalingPolicy(Ds2Options.defaults()));
      case FORECAST ->
          new LoopController(
              FORECAST, () -> new ScalingPolicy(Ds2Options.defaults().with(FORECAST_OPTIONS)));
      case PAPER_DEFAULTS ->
          new LoopController(PAPER_DEFAULTS, () -> new PaperPolicy(Ds2Options.defaults()));
      case FLINK_DOCUMENTED -> FlinkAutoscaler110.documented(name);
      case "ds2-paper" -> new LoopController("ds2-paper", () -> new PaperPolicy(o));
      case "flink-as-1.10-matched" -> FlinkAutoscaler110.matched();
      case "flink-as-1.10" -> FlinkAutoscaler110.defaults();
      default -> throw unknown(name);
    };
  }

  /** {@code base} at target utilization {@code target}, named {@code name}. */
  private static BenchController atTarget(String name, String base, String target) {
    Map<String, String> at = Map.of(Ds2Options.TARGET_UTILIZATION, target);
    Ds2Options matched = Ds2Options.fromMap(MATCHED).with(at);
    Ds2Options defaults = Ds2Options.defaults().with(at);
    return switch (base) {
      case "ds2" -> new LoopController(name, () -> new ScalingPolicy(matched));
      case "ds2-paper" -> new LoopController(name, () -> new PaperPolicy(matched));
      case DEFAULTS -> new LoopController(name, () -> new ScalingPolicy(defaults));
      case FORECAST ->
          new LoopController(name, () -> new ScalingPolicy(defaults.with(FORECAST_OPTIONS)));
      case PAPER_DEFAULTS -> new LoopController(name, () -> new PaperPolicy(defaults));
      case "flink-as-1.10" -> FlinkAutoscaler110.atTarget(name, target);
      case FLINK_DOCUMENTED -> FlinkAutoscaler110.documented(name, target);
      default -> throw unknown(name);
    };
  }

  private static IllegalArgumentException unknown(String name) {
    return new IllegalArgumentException(
        "no controller "
            + name
            + "; known: "
            + names()
            + ", "
            + atCommonTarget()
            + ", flink-as-1.10, "
            + DEFAULTS
            + ", "
            + FORECAST
            + ", "
            + PAPER_DEFAULTS
            + " (any of them at another target utilization with -u and the target, e.g."
            + " ds2-defaults-u0.7)");
  }
}
