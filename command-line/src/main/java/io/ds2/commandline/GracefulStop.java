package io.ds2.commandline;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C / SIGTERM handling for long-running commands: the JVM's shutdown hook interrupts the
 * working thread (which stops between steps) and waits until it has finished cleaning up.
 */
public final class GracefulStop implements AutoCloseable {
  private static final long MAX_CLEANUP_SECONDS = 30;
  private final CountDownLatch finished = new CountDownLatch(1);
  private final Thread hook;
  private volatile boolean requested;

  public GracefulStop() {
    Thread worker = Thread.currentThread();
    hook =
        new Thread(
            () -> {
              requested = true;
              worker.interrupt();
              try {
                finished.await(MAX_CLEANUP_SECONDS, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "ds2-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** True once Ctrl-C or SIGTERM arrived. */
  public boolean requested() {
    return requested;
  }

  /** Cleanup is done: let the JVM exit; unregister the hook if the JVM is not exiting. */
  @Override
  public void close() {
    finished.countDown();
    if (!requested) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // The JVM is already shutting down: the hook runs and returns at once.
      }
    }
  }
}
