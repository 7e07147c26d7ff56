package io.ds2.experiments.bench;

import io.ds2.workloads.LocalFlinkCluster;
import java.util.Map;

/** How a benchmark's Flink cluster is configured. */
public enum ClusterSettings {
  /**
   * Flink's defaults (10 s metric fetch interval, default network buffers, the adaptive scheduler's
   * default cool-downs), as users run it; see {@link LocalFlinkCluster#startAtFlinkDefaults}.
   */
  FLINK_DEFAULTS,
  /**
   * The earlier bench: a 1 s metric fetch interval and 1 s cool-downs, and with the Kafka feed few,
   * small network buffers (4 KiB segments, 2 per channel) so that an overloaded vertex
   * back-pressures its source within seconds instead of hiding the overflow in buffers (not
   * debloated: at the fan-in's oracle, debloated buffers held the source 100 % back-pressured with
   * no vertex more than 77 % busy). The runs stored before 2026-12-03 ran on it.
   */
  TUNED;

  /** The name runs record and the command line takes. */
  public String label() {
    return this == FLINK_DEFAULTS ? "flink-defaults" : "tuned";
  }

  public static ClusterSettings of(String label) {
    for (ClusterSettings c : values()) {
      if (c.label().equals(label)) {
        return c;
      }
    }
    throw new IllegalArgumentException("--cluster must be flink-defaults or tuned, was " + label);
  }

  LocalFlinkCluster start(int slotsPerTaskManager, ScenarioRun.Feed feed) throws Exception {
    return this == FLINK_DEFAULTS
        ? LocalFlinkCluster.startAtFlinkDefaults(slotsPerTaskManager, Map.of())
        : LocalFlinkCluster.startWithFastTimings(
            slotsPerTaskManager,
            feed == ScenarioRun.Feed.KAFKA ? LocalFlinkCluster.SMALL_NETWORK_BUFFERS : Map.of(),
            "the earlier bench, kept to re-score and compare the runs stored on it");
  }
}
