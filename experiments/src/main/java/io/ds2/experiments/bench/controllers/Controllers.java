package io.ds2.experiments.bench.controllers;

import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.experiments.bench.BenchController;
import java.util.List;
import java.util.Map;

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

  public static BenchController byName(String name) {
    Ds2Options o = Ds2Options.fromMap(MATCHED);
    Ds2Options common = o.with(Map.of(Ds2Options.TARGET_UTILIZATION, COMMON_TARGET));
    return switch (name) {
      case "ds2" + AT_COMMON_TARGET -> new LoopController(name, () -> new ScalingPolicy(common));
      case "ds2-paper" + AT_COMMON_TARGET ->
          new LoopController(name, () -> new PaperPolicy(common));
      case "flink-as-1.10" + AT_COMMON_TARGET -> FlinkAutoscaler110.atTarget(name, COMMON_TARGET);
      case "ds2" -> new LoopController("ds2", () -> new ScalingPolicy(o));
      case DEFAULTS + AT_COMMON_TARGET ->
          new LoopController(
              name,
              () ->
                  new ScalingPolicy(
                      Ds2Options.defaults()
                          .with(Map.of(Ds2Options.TARGET_UTILIZATION, COMMON_TARGET))));
      case FLINK_DOCUMENTED -> FlinkAutoscaler110.documented(name);
      case DEFAULTS -> new LoopController(DEFAULTS, () -> new ScalingPolicy(Ds2Options.defaults()));
      case "ds2-paper" -> new LoopController("ds2-paper", () -> new PaperPolicy(o));
      case "flink-as-1.10-matched" -> FlinkAutoscaler110.matched();
      case "flink-as-1.10" -> FlinkAutoscaler110.defaults();
      default ->
          throw new IllegalArgumentException(
              "no controller "
                  + name
                  + "; known: "
                  + names()
                  + ", "
                  + atCommonTarget()
                  + ", flink-as-1.10, "
                  + DEFAULTS);
    };
  }
}
