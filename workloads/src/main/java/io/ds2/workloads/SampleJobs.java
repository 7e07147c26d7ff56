package io.ds2.workloads;

import io.ds2.workloads.JobSpec.OperatorSpec;
import io.ds2.workloads.JobSpec.SourceSpec;
import io.ds2.workloads.source.RateSchedule;
import java.util.List;

/** Jobs with a known bottleneck, written as users write them, used by the demo and the tests. */
public final class SampleJobs {
  private SampleJobs() {}

  /**
   * Two sources on 12 splits each, a fan-in and a selectivity of 2, every vertex started at
   * parallelism 1. Flink chains Parse to its source and Sink to Join: three vertices.
   *
   * <pre>
   * Source: Orders (400/s) -> Parse (6.75 ms, x2) --\
   *                                                  Join (2.6 ms, keyed, x0.5) -> Sink (1.15 ms)
   * Source: Payments (300/s) -----------------------/
   * </pre>
   *
   * Loads r x c: Orders' chain 400 x 6.75 ms = 2.7 -> 3 (4 of the 12 splits a subtask); Join ->
   * Sink 1100 x 2.6 ms + 550 x 1.15 ms = 3.49, keyed (keys 0..4095, max parallelism 128): at 4 the
   * busiest subtask gets 1.04 x its share (0.91 busy), at 3 it would be 1.23. At twice the rate:
   * 5.4 -> 6 (2 splits each), and 6.98: at 8 the busiest is 0.92 busy, at 7 it would be 1.08 (8
   * slots). Every vertex is at least 8 % from the boundary of its answer at both rates, so
   * measurement noise cannot flip the oracle. Payments' source costs next to nothing: 1.
   */
  public static JobSpec ordersAndPayments() {
    return new JobSpec(
        "orders-and-payments",
        List.of(
            new SourceSpec("Orders", RateSchedule.constant(400), 1),
            new SourceSpec("Payments", RateSchedule.constant(300), 1)),
        List.of(
            new OperatorSpec("Parse", List.of("Orders"), 6.75, 2.0, 1, false, 0),
            new OperatorSpec("Join", List.of("Parse", "Payments"), 2.6, 0.5, 1, true, 0),
            new OperatorSpec("Sink", List.of("Join"), 1.15, 0.0, 1, false, 0)));
  }

  /**
   * A chain whose per-record cost grows 8 % per extra instance: Source (360/s) -> Work (10 ms,
   * keyed) -> Sink (0.4 ms, chained to Work). With even keys Work -> Sink would need 5 (3.744 x
   * 0.92 / (1 - 0.288) = 4.84), where plain DS2 from 1 goes to 4 first (3.74), then measures the
   * cost at p=4; under Flink's key groups (keys 0..4095, max parallelism 128) the busiest subtask
   * of 5 gets 1.07 x its share and needs 1.03 instances, so the oracle is 6.
   */
  public static JobSpec subLinear() {
    return new JobSpec(
        "sub-linear",
        List.of(new SourceSpec("Events", RateSchedule.constant(360), 1)),
        List.of(
            new OperatorSpec("Work", List.of("Events"), 10, 1.0, 1, true, 0.08),
            new OperatorSpec("Sink", List.of("Work"), 0.4, 0.0, 1, false, 0)));
  }

  /**
   * The shape of most production jobs: a source on 10 splits chained with its parser, and a keyed
   * count chained with the sink, both at parallelism 1.
   *
   * <pre>
   * Source: S (1,000/s, 10 splits) -> Parse (2.6 ms)  ==HASH==>  Count (1.2 ms) -> Sink: Writer (0.1 ms)
   * </pre>
   *
   * The source's chain needs 2.6 instances: DS2's even answer 3 leaves a subtask 4 of the 10
   * splits, 400/s at 2.6 ms, 104 % busy; at 4 the busiest reads 3 (3,3,2,2), 78 %. (At 2.5 ms the
   * busiest of 3 would need exactly 100 %, and a window's estimate a few records/s low or high
   * decides between 3 and 4: no test can rest on that.) Count -> Sink: 1,000 x 1.3 ms = 1.3, keyed:
   * 2.
   */
  public static JobSpec parseAndCount() {
    return new JobSpec(
        "parse-and-count",
        List.of(new SourceSpec("S", RateSchedule.constant(1000), 1, 10)),
        List.of(
            new OperatorSpec("Parse", List.of("S"), 2.6, 1.0, 1, false, 0),
            new OperatorSpec("Count", List.of("Parse"), 1.2, 1.0, 1, true, 0),
            new OperatorSpec("Sink: Writer", List.of("Count"), 0.1, 0.0, 1, false, 0)));
  }
}
