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
 */
public final class CostDebt implements Serializable {
  private static final long PAY_THRESHOLD_NANOS = 1_000_000;
  private long debtNanos;

  public void pay(long costNanos) {
    debtNanos += costNanos;
    if (debtNanos >= PAY_THRESHOLD_NANOS) {
      long start = System.nanoTime();
      LockSupport.parkNanos(debtNanos);
      debtNanos -= System.nanoTime() - start;
    }
  }
}
