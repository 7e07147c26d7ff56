package io.ds2.experiments.bench;

import io.ds2.flink.FlinkRestClient;
import io.ds2.recording.RecordingWriter;
import java.time.Clock;
import java.util.Map;

/** A controller under test: runs against one job until its thread is interrupted. */
public interface BenchController {
  /** The name in result tables, e.g. {@code ds2} or {@code ds2-paper}. */
  String name();

  /**
   * Controls the job until interrupted; rescales only through {@link Context#rescaler()} (the same
   * REST rescale for every controller) and times its decisions with {@link Context#timer()}.
   */
  void run(Context context) throws Exception;

  /**
   * The busy fraction it sizes vertices for (its target utilization): the bench's cost is also
   * compared with the oracle at that target.
   */
  double targetUtilization();

  /**
   * The ds2 options it runs with, kept in the run's recording so that {@code ds2 whatif} replays it
   * the same way; empty for controllers that are not ds2's loop.
   */
  default java.util.Map<String, String> options() {
    return java.util.Map.of();
  }

  /** What every controller gets: the job, the shared rescale mechanism, the run's recording. */
  record Context(
      FlinkRestClient rest,
      String jobId,
      Clock clock,
      RecordingWriter recording,
      BenchRescaler rescaler,
      DecisionTimer timer,
      Map<String, Integer> sourceSplits) {}
}
