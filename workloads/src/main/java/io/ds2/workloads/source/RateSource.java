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
 * A FLIP-27 generator on a wall-clock rate schedule, in {@code splits} splits like a topic's
 * partitions: each split emits its share of every record whose scheduled time has passed, and each
 * subtask reports what its splits have not emitted yet as the FLIP-33 {@code pendingRecords} gauge,
 * so a back-pressured source shows a growing backlog as a real queue would. The enumerator deals
 * the splits out in turn when the readers register (split i to subtask i mod p); a subtask without
 * a split emits nothing. Like most FLIP-27 sources other than Kafka's, its metrics do not name its
 * splits.
 */
public final class RateSource implements Source<Long, RateSplit, List<RateSplit>> {
  private final RateSchedule schedule;
  private final String control;
  private final int splits;

  /**
   * @param control a {@link RateControl} key whose factor multiplies the schedule; empty for none
   * @param splits how many splits the schedule's records are spread over, evenly
   */
  public RateSource(RateSchedule schedule, String control, int splits) {
    if (splits < 1) {
      throw new IllegalArgumentException("a source has at least one split, not " + splits);
    }
    this.schedule = schedule;
    this.control = control;
    this.splits = splits;
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
    return new RateEnumerator(context, splits, List.of());
  }

  @Override
  public SplitEnumerator<RateSplit, List<RateSplit>> restoreEnumerator(
      SplitEnumeratorContext<RateSplit> context, List<RateSplit> checkpoint) {
    return new RateEnumerator(context, splits, checkpoint);
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
