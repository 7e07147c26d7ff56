package io.ds2.workloads.source;

import java.util.List;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A FLIP-27 generator on a wall-clock rate schedule. Each subtask emits its share of every record
 * whose scheduled time has passed and reports the rest as the FLIP-33 {@code pendingRecords} gauge,
 * so a back-pressured source shows a growing backlog as a real queue would.
 */
public final class RateSource implements Source<Long, RateSplit, List<RateSplit>> {
  private final RateSchedule schedule;
  private final String control;

  /**
   * @param control a {@link RateControl} key whose factor multiplies the schedule; empty for none
   */
  public RateSource(RateSchedule schedule, String control) {
    this.schedule = schedule;
    this.control = control;
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<Long, RateSplit> createReader(SourceReaderContext context) {
    return new RateReader(context, schedule, control);
  }

  @Override
  public SplitEnumerator<RateSplit, List<RateSplit>> createEnumerator(
      SplitEnumeratorContext<RateSplit> context) {
    return new RateEnumerator(context, List.of());
  }

  @Override
  public SplitEnumerator<RateSplit, List<RateSplit>> restoreEnumerator(
      SplitEnumeratorContext<RateSplit> context, List<RateSplit> checkpoint) {
    return new RateEnumerator(context, checkpoint);
  }

  @Override
  public SimpleVersionedSerializer<RateSplit> getSplitSerializer() {
    return new RateSplitSerializer.Splits();
  }

  @Override
  public SimpleVersionedSerializer<List<RateSplit>> getEnumeratorCheckpointSerializer() {
    return new RateSplitSerializer.EnumeratorState();
  }
}
