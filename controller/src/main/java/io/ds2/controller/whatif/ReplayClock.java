package io.ds2.controller.whatif;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** Recorded time: the time of the sample being replayed, so windows and delays run on it. */
final class ReplayClock extends Clock {
  private Instant now;

  ReplayClock(Instant start) {
    this.now = start;
  }

  void advanceTo(Instant t) {
    if (t.isAfter(now)) {
      now = t;
    }
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
