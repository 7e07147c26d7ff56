package io.ds2.cli;

import io.ds2.commandline.UsageException;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.scaler.JobTopology;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobSampler;
import io.ds2.recording.LiveRecording;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --record FILE} of the commands that watch a live job (recommend, run). */
public final class RecordOption {
  @Option(
      names = "--record",
      paramLabel = "FILE",
      description =
          "Record every poll (and decision) to FILE for ds2 whatif: JSON Lines, gzip if FILE ends"
              + " in .gz.")
  Path file;

  /** The recording, header written; null without {@code --record}. */
  public LiveRecording start(
      FlinkRestClient client,
      JobSampler sampler,
      JobTopology topology,
      Ds2Options options,
      Map<String, Integer> sourceSplits) {
    if (file == null) {
      return null;
    }
    try {
      return LiveRecording.start(
          file,
          client,
          sampler,
          topology,
          options.sampleInterval(),
          options.asMap(),
          sourceSplits,
          Clock.systemUTC());
    } catch (UncheckedIOException e) {
      throw new UsageException("--record: " + e.getMessage());
    }
  }
}
