package io.ds2.workloads.source;

import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One generator's share of the schedule: subtask {@code index} of {@code of} emits every record
 * whose scheduled time has passed since {@code countFromMillis}. {@code emitted} is checkpointed,
 * so after a restore the records missed while down become backlog.
 *
 * @param epochMillis when the schedule's phase 0 began (wall clock)
 */
public record RateSplit(int index, int of, long epochMillis, long countFromMillis, long emitted)
    implements SourceSplit {
  @Override
  public String splitId() {
    return String.valueOf(index);
  }

  RateSplit withEmitted(long n) {
    return new RateSplit(index, of, epochMillis, countFromMillis, n);
  }
}
