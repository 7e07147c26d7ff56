package io.ds2.flink;

import java.time.Duration;

/** Pauses a thread; injectable so tests and replays need not wait. */
@FunctionalInterface
public interface Sleeper {
  /** The real one: sleeps the calling thread (interruptibly). */
  Sleeper SYSTEM = d -> Thread.sleep(d.toMillis());

  void sleep(Duration d) throws InterruptedException;
}
