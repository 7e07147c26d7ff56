package io.ds2.workloads.source;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;

/** Emits one record per poll while behind schedule; otherwise waits until the next is due. */
final class RateReader implements SourceReader<Long, RateSplit> {
  private static final long MAX_WAIT_MS = 10;
  private final SourceReaderContext context;
  private final RateSchedule schedule;
  private final Counter recordsIn;
  private volatile RateSplit split;
  private volatile long emitted;
  private CompletableFuture<Void> available = new CompletableFuture<>();

  RateReader(SourceReaderContext context, RateSchedule schedule) {
    this.context = context;
    this.schedule = schedule;
    this.recordsIn = context.metricGroup().getIOMetricGroup().getNumRecordsInCounter();
  }

  @Override
  public void start() {
    // Read from the metric reporting thread: uses only volatile fields.
    context.metricGroup().setPendingRecordsGauge(() -> Math.max(0, due() - emitted));
  }

  private long due() {
    RateSplit s = split;
    if (s == null) {
      return 0;
    }
    double from = (s.countFromMillis() - s.epochMillis()) / 1000.0;
    double now = (System.currentTimeMillis() - s.epochMillis()) / 1000.0;
    return (long) Math.floor(schedule.integral(from, now) / s.of());
  }

  @Override
  public InputStatus pollNext(ReaderOutput<Long> output) {
    RateSplit s = split;
    if (s == null) {
      return InputStatus.NOTHING_AVAILABLE;
    }
    if (emitted < due()) {
      output.collect(emitted * s.of() + s.index());
      recordsIn.inc();
      emitted++;
      return InputStatus.MORE_AVAILABLE;
    }
    double rate = schedule.rateAt((System.currentTimeMillis() - s.epochMillis()) / 1000.0) / s.of();
    long waitMs =
        rate <= 0 ? MAX_WAIT_MS : Math.max(1, Math.min(MAX_WAIT_MS, (long) (1000 / rate)));
    available =
        CompletableFuture.runAsync(
            () -> {}, CompletableFuture.delayedExecutor(waitMs, TimeUnit.MILLISECONDS));
    return InputStatus.NOTHING_AVAILABLE;
  }

  @Override
  public List<RateSplit> snapshotState(long checkpointId) {
    RateSplit s = split;
    return s == null ? List.of() : List.of(s.withEmitted(emitted));
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    return available;
  }

  @Override
  public void addSplits(List<RateSplit> splits) {
    RateSplit s = splits.get(0);
    emitted = s.emitted();
    split = s;
    available.complete(null);
  }

  @Override
  public void notifyNoMoreSplits() {}

  @Override
  public void close() {}
}
