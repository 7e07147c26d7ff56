package io.ds2.workloads;

import java.io.Serializable;
import java.util.concurrent.locks.LockSupport;

/**
 * Makes each record cost a controlled amount of time by sleeping, not spinning, so capacity is
 * 1/cost per instance whatever the core count, and Flink counts the sleep as busy time.
 *
 * <p>Sleeps overshoot and park resolves only ~50-100 us, so cost accrues as a debt that is paid in
 * sleeps of about 1 ms; the time actually slept is measured and subtracted (the debt may go
 * negative and carries over). The mean cost per record is exact.
 *
 * <p>A sleep that overshoots by more than {@link #MAX_CREDIT_NANOS} was a pause (a paused VM, a
 * long GC), not timer slack: that time is lost, as it is to any operator, and not credited.
 * Credited, a 15 s pause made the next 15 s of records free, and a window after it read a 250/s
 * vertex as 320/s.
 */
public final class CostDebt implements Serializable {
  private static final long PAY_THRESHOLD_NANOS = 1_000_000;
  static final long MAX_CREDIT_NANOS = 100_000_000;
  private long debtNanos;

  public void pay(long costNanos) {
    debtNanos += costNanos;
    if (debtNanos >= PAY_THRESHOLD_NANOS) {
      long start = System.nanoTime();
      LockSupport.parkNanos(debtNanos);
      slept(System.nanoTime() - start);
    }
  }

  /** Settles a sleep that took {@code nanos}: its overshoot is credited up to the cap. */
  void slept(long nanos) {
    debtNanos = Math.max(-MAX_CREDIT_NANOS, debtNanos - nanos);
  }

  long debtNanos() {
    return debtNanos;
  }
}
