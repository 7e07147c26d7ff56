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
   * Orders (400/s) -> Parse (6.3 ms, x2) --\
   *                                         Join (3.1 ms, keyed, x0.5) -> Sink (2.6 ms)
   * Payments (300/s) ----------------------/
   * </pre>
   *
   * Loads r x c: Parse 400 x 6.3 ms = 2.52 -> 3; Join 1100 x 3.1 ms = 3.41 -> 4; Sink 550 x 2.6 ms
   * = 1.43 -> 2. None is near an integer, so measurement noise cannot flip the oracle.
   */
  public static JobSpec ordersAndPayments() {
    return new JobSpec(
        "orders-and-payments",
        List.of(
            new SourceSpec("Orders", RateSchedule.constant(400), 1),
            new SourceSpec("Payments", RateSchedule.constant(300), 1)),
        List.of(
            new OperatorSpec("Parse", List.of("Orders"), 6.3, 2.0, 1, false, 0),
            new OperatorSpec("Join", List.of("Parse", "Payments"), 3.1, 0.5, 1, true, 0),
            new OperatorSpec("Sink", List.of("Join"), 2.6, 0.0, 1, false, 0)));
  }
}
