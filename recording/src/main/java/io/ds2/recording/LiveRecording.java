package io.ds2.recording;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.MetricSource;
import io.ds2.core.scaler.SourceFailure;
import io.ds2.flink.FlinkRestClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A recording of a live job in progress: the header written, a source that records every poll it
 * passes on, and a listener that records the loop's decisions and rescales.
 */
public final class LiveRecording implements AutoCloseable {
  private final RecordingWriter writer;
  private final RecordingMetricSource source;
  private final RecordingListener listener;

  private LiveRecording(
      RecordingWriter writer, MetricSource live, JobTopology topology, Clock clock) {
    this.writer = writer;
    this.source = new RecordingMetricSource(live, topology, writer);
    this.listener = new RecordingListener(writer, clock);
  }

  /** Header config field: split counts given for sources, by vertex id or name. */
  public static final String SOURCE_SPLITS = "sourceSplits";

  /**
   * Creates {@code path} and writes its header.
   *
   * @param interval the time between polls the caller aims for
   * @param options the scaling options in force (kept with the data), empty if none
   * @param sourceSplits split counts the user gave for sources whose metrics name none (kept, so a
   *     replay sizes them as the live run did), empty if none
   * @throws UncheckedIOException if the file cannot be created
   */
  public static LiveRecording start(
      Path path,
      FlinkRestClient client,
      MetricSource live,
      JobTopology topology,
      Duration interval,
      Map<String, String> options,
      Map<String, Integer> sourceSplits,
      Clock clock) {
    RecordingWriter writer;
    try {
      writer = RecordingWriter.create(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create recording " + path + ": " + e, e);
    }
    return start(writer, client, live, topology, interval, options, sourceSplits, clock);
  }

  /**
   * As {@link #start(Path, FlinkRestClient, MetricSource, JobTopology, Duration, Map, Map, Clock)},
   * into a writer made by the caller (the operator's rotating one).
   */
  public static LiveRecording start(
      RecordingWriter writer,
      FlinkRestClient client,
      MetricSource live,
      JobTopology topology,
      Duration interval,
      Map<String, String> options,
      Map<String, Integer> sourceSplits,
      Clock clock) {
    ObjectNode config = RecordingFormat.MAPPER.createObjectNode();
    config.put("ds2Version", "0.1.0");
    options.forEach(config.putObject("options")::put);
    if (!sourceSplits.isEmpty()) {
      sourceSplits.forEach(config.putObject(SOURCE_SPLITS)::put);
    }
    writer.write(
        new Recorded.Header(
            RecordingFormat.VERSION,
            clock.instant(),
            client.baseUrl().toString(),
            topology.jobId(),
            topology.jobName(),
            flinkVersion(client),
            interval,
            live.metricRefresh(),
            config));
    return new LiveRecording(writer, live, topology, clock);
  }

  /** Flink's version from {@code GET /config}, if it says. */
  private static Optional<String> flinkVersion(FlinkRestClient client) {
    try {
      return Optional.ofNullable(client.get("/config", ObjectNode.class).get("flink-version"))
          .filter(v -> v.isTextual())
          .map(v -> v.asText());
    } catch (SourceFailure e) {
      return Optional.empty();
    }
  }

  /** The live source, recording every poll. */
  public MetricSource source() {
    return source;
  }

  /** Records decisions, rescales and problems as events. */
  public RecordingListener listener() {
    return listener;
  }

  public RecordingWriter writer() {
    return writer;
  }

  @Override
  public void close() throws IOException {
    writer.close();
  }
}
