package io.ds2.workloads.source;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;

/**
 * Emits one record per poll while behind schedule; otherwise waits until the next is due. The
 * scheduled count is integrated as time passes, so a live {@link RateControl} factor applies from
 * the moment it changes.
 */
final class RateReader implements SourceReader<Long, RateSplit> {
  private static final long MAX_WAIT_MS = 10;
  private final SourceReaderContext context;
  private final RateSchedule schedule;
  private final String control;
  private final Counter recordsIn;
  private volatile RateSplit split;
  private volatile long emitted;
  private double due; // guarded by this
  private long dueAsOfMillis; // guarded by this
  private CompletableFuture<Void> available = new CompletableFuture<>();

  RateReader(SourceReaderContext context, RateSchedule schedule, String control) {
    this.context = context;
    this.schedule = schedule;
    this.control = control;
    this.recordsIn = context.metricGroup().getIOMetricGroup().getNumRecordsInCounter();
  }

  @Override
  public void start() {
    // Also read from the metric reporting thread: due() is synchronized, emitted volatile.
    context.metricGroup().setPendingRecordsGauge(() -> Math.max(0, due() - emitted));
  }

  private double rateNow(RateSplit s, long nowMillis) {
    return schedule.rateAt((nowMillis - s.epochMillis()) / 1000.0)
        * RateControl.factor(control)
        / s.of();
  }

  /** Records scheduled for this subtask so far. */
  private synchronized long due() {
    RateSplit s = split;
    if (s == null) {
      return 0;
    }
    long now = System.currentTimeMillis();
    if (now > dueAsOfMillis) {
      due += rateNow(s, now) * (now - dueAsOfMillis) / 1000.0;
      dueAsOfMillis = now;
    }
    return (long) Math.floor(due);
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
    double rate = rateNow(s, System.currentTimeMillis());
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
    long now = System.currentTimeMillis();
    synchronized (this) {
      // Records missed between countFrom (e.g. a restored checkpoint) and now are backlog.
      double from = (s.countFromMillis() - s.epochMillis()) / 1000.0;
      double to = (now - s.epochMillis()) / 1000.0;
      due = schedule.integral(from, to) * RateControl.factor(control) / s.of();
      dueAsOfMillis = now;
      emitted = s.emitted();
      split = s;
    }
    available.complete(null);
  }

  @Override
  public void notifyNoMoreSplits() {}

  @Override
  public void close() {}
}
