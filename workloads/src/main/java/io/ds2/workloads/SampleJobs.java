package io.ds2.workloads;

import io.ds2.workloads.JobSpec.OperatorSpec;
import io.ds2.workloads.JobSpec.SourceSpec;
import io.ds2.workloads.source.RateSchedule;
import java.util.List;

/** Jobs with a known bottleneck, used by the demo and the tests. */
public final class SampleJobs {
  private SampleJobs() {}

  /**
   * Two sources, a fan-in and a selectivity of 2, every operator started at parallelism 1.
   *
   * <pre>
   * Orders (400/s) -> Parse (6.75 ms, x2) --\
   *                                          Join (3.35 ms, keyed, x0.5) -> Sink (3.1 ms)
   * Payments (300/s) -----------------------/
   * </pre>
   *
   * Loads r x c: Parse 400 x 6.75 ms = 2.7 -> 3; Join 1100 x 3.35 ms = 3.69 -> 4; Sink 550 x 3.1 ms
   * = 1.71 -> 2. At twice the rate: 5.4 -> 6, 7.37 -> 8, 3.41 -> 4 (8 slots). Every load is at
   * least 8 % away from the next integer at both rates, so measurement noise cannot flip the
   * oracle. Join is keyed (keys 0..4095, max parallelism 128): its busiest subtask gets 1.04 x its
   * share at 4 (0.96 instances) and 1.05 x at 8 (0.97), so key groups leave the oracle as is.
   */
  public static JobSpec ordersAndPayments() {
    return new JobSpec(
        "orders-and-payments",
        List.of(
            new SourceSpec("Orders", RateSchedule.constant(400), 1),
            new SourceSpec("Payments", RateSchedule.constant(300), 1)),
        List.of(
            new OperatorSpec("Parse", List.of("Orders"), 6.75, 2.0, 1, false, 0),
            new OperatorSpec("Join", List.of("Parse", "Payments"), 3.35, 0.5, 1, true, 0),
            new OperatorSpec("Sink", List.of("Join"), 3.1, 0.0, 1, false, 0)));
  }

  /**
   * A chain whose per-record cost grows 8 % per extra instance: Source (360/s) -> Work (10 ms,
   * keyed) -> Sink (0.4 ms). With even keys Work would need 5 (3.6 x 0.92 / (1 - 0.288) = 4.65),
   * where plain DS2 from 1 goes to 4 first (3.6), then measures 4.46 at p=4; under Flink's key
   * groups (keys 0..4095, max parallelism 128) the busiest subtask of 5 gets 1.07 x its share and
   * needs 1.02 instances, so the oracle is 6 (0.89).
   */
  public static JobSpec subLinear() {
    return new JobSpec(
        "sub-linear",
        List.of(new SourceSpec("Events", RateSchedule.constant(360), 1)),
        List.of(
            new OperatorSpec("Work", List.of("Events"), 10, 1.0, 1, true, 0.08),
            new OperatorSpec("Sink", List.of("Work"), 0.4, 0.0, 1, false, 0)));
  }
}
