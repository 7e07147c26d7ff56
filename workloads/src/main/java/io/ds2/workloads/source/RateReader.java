package io.ds2.workloads.source;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;

/**
 * Emits one record per poll from the split furthest behind its schedule while any is behind;
 * otherwise waits (idle) until the next is due. Each split's scheduled count is integrated as time
 * passes, so a live {@link RateControl} factor applies from the moment it changes.
 */
final class RateReader implements SourceReader<Long, RateSplit> {
  private static final long MAX_WAIT_MS = 10;
  private final SourceReaderContext context;
  private final RateSchedule schedule;
  private final String control;
  private final Counter recordsIn;
  // guarded by this (also read by the metric reporting thread through the gauge)
  private final List<Owned> splits = new ArrayList<>();
  private CompletableFuture<Void> available = new CompletableFuture<>();

  /** A split this reader emits, with what is due and what it emitted. */
  private static final class Owned {
    RateSplit split;
    double due;
    long dueAsOfMillis;
    long emitted;
  }

  RateReader(SourceReaderContext context, RateSchedule schedule, String control) {
    this.context = context;
    this.schedule = schedule;
    this.control = control;
    this.recordsIn = context.metricGroup().getIOMetricGroup().getNumRecordsInCounter();
  }

  @Override
  public void start() {
    context.metricGroup().setPendingRecordsGauge(this::pending);
  }

  private double rateNow(RateSplit s, long nowMillis) {
    return schedule.rateAt((nowMillis - s.epochMillis()) / 1000.0)
        * RateControl.factor(control)
        / s.of();
  }

  private synchronized long pending() {
    long now = System.currentTimeMillis();
    long behind = 0;
    for (Owned o : splits) {
      behind += Math.max(0, due(o, now) - o.emitted);
    }
    return behind;
  }

  /** Records scheduled for split {@code o} so far. */
  private long due(Owned o, long now) {
    if (now > o.dueAsOfMillis) {
      o.due += rateNow(o.split, now) * (now - o.dueAsOfMillis) / 1000.0;
      o.dueAsOfMillis = now;
    }
    return (long) Math.floor(o.due);
  }

  @Override
  public InputStatus pollNext(ReaderOutput<Long> output) {
    Owned next = null;
    long most = 0;
    long now = System.currentTimeMillis();
    double rate = 0;
    synchronized (this) {
      for (Owned o : splits) {
        long behind = due(o, now) - o.emitted;
        if (behind > most) {
          most = behind;
          next = o;
        }
        rate += rateNow(o.split, now);
      }
      if (next != null) {
        next.emitted++;
      }
    }
    if (next != null) {
      output.collect((next.emitted - 1) * next.split.of() + next.split.index());
      recordsIn.inc();
      return InputStatus.MORE_AVAILABLE;
    }
    long waitMs =
        rate <= 0 ? MAX_WAIT_MS : Math.max(1, Math.min(MAX_WAIT_MS, (long) (1000 / rate)));
    available =
        CompletableFuture.runAsync(
            () -> {}, CompletableFuture.delayedExecutor(waitMs, TimeUnit.MILLISECONDS));
    return InputStatus.NOTHING_AVAILABLE;
  }

  @Override
  public synchronized List<RateSplit> snapshotState(long checkpointId) {
    List<RateSplit> state = new ArrayList<>();
    splits.forEach(o -> state.add(o.split.withEmitted(o.emitted)));
    return state;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    return available;
  }

  @Override
  public void addSplits(List<RateSplit> added) {
    long now = System.currentTimeMillis();
    synchronized (this) {
      for (RateSplit s : added) {
        Owned o = new Owned();
        // Records missed between countFrom (e.g. a restored checkpoint) and now are backlog.
        double from = (s.countFromMillis() - s.epochMillis()) / 1000.0;
        double to = (now - s.epochMillis()) / 1000.0;
        o.due = schedule.integral(from, to) * RateControl.factor(control) / s.of();
        o.dueAsOfMillis = now;
        o.emitted = s.emitted();
        o.split = s;
        splits.add(o);
      }
    }
    available.complete(null);
  }

  @Override
  public void notifyNoMoreSplits() {}

  @Override
  public void close() {}
}
