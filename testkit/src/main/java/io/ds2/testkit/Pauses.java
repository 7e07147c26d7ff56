package io.ds2.testkit;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Notices when this JVM stood still: a paused VM on a shared CI runner, a long GC. A thread ticks
 * every 50 ms and records every tick that came more than {@code atLeast} late. A MiniCluster in the
 * test's JVM stands still with it, so across such a pause the job did not run as its spec says
 * (tasks charge the pause to busy or idle time, whichever they were in), and no oracle holds for a
 * window over it. From outside the JVM no controller can tell such a pause from a slow job.
 */
public final class Pauses implements AutoCloseable {
  private static final long TICK_NANOS = 50_000_000;

  /** The JVM stood still from {@code from} to {@code to} (wall clock). */
  public record Pause(Instant from, Instant to) {
    public Duration length() {
      return Duration.between(from, to);
    }
  }

  private final long atLeastNanos;
  private final List<Pause> seen = new ArrayList<>();
  private final Thread ticker;
  private volatile boolean closed;

  Pauses(Duration atLeast) {
    this.atLeastNanos = atLeast.toNanos();
    this.ticker = new Thread(this::tick, "pause-detector");
    ticker.setDaemon(true);
    ticker.setPriority(Thread.MAX_PRIORITY);
  }

  /** Starts watching for pauses of at least {@code atLeast}. */
  public static Pauses watch(Duration atLeast) {
    Pauses p = new Pauses(atLeast);
    p.ticker.start();
    return p;
  }

  private void tick() {
    long last = System.nanoTime();
    while (!closed) {
      LockSupport.parkNanos(TICK_NANOS);
      long now = System.nanoTime();
      ticked(now - last, Instant.now());
      last = now;
    }
  }

  /** A tick {@code sinceLastNanos} after the one before, at {@code now}. */
  void ticked(long sinceLastNanos, Instant now) {
    if (sinceLastNanos - TICK_NANOS >= atLeastNanos) {
      synchronized (seen) {
        seen.add(new Pause(now.minusNanos(sinceLastNanos), now));
      }
    }
  }

  /** The pauses seen so far that overlap [{@code from}, {@code to}]. */
  public List<Pause> within(Instant from, Instant to) {
    List<Pause> result = new ArrayList<>();
    synchronized (seen) {
      for (Pause p : seen) {
        if (p.to().isAfter(from) && p.from().isBefore(to)) {
          result.add(p);
        }
      }
    }
    return result;
  }

  /** Every pause seen so far. */
  public List<Pause> all() {
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  @Override
  public void close() {
    closed = true;
    ticker.interrupt();
  }
}
