package io.ds2.core.window;

import java.util.OptionalDouble;
import java.util.StringJoiner;

/**
 * Raw cumulative counters of one subtask as Flink reported them at one poll. A metric Flink did not
 * report (or reported as NaN) is absent, never 0.
 *
 * <p>Not a record of {@code OptionalDouble}s: a window of a 1,000-vertex job reads some 10,000 of
 * these per poll, and one object per subtask (values plus a presence mask) instead of six is what
 * keeps building the window cache-friendly. {@link #has}/{@link #value} are the allocation-free
 * accessors; the {@code OptionalDouble} ones remain for everyone else.
 */
public final class SubtaskSample {
  private static final Counter[] COUNTERS = Counter.values();
  static final int ALL_PRESENT = (1 << COUNTERS.length) - 1;

  private final int subtask;
  // One field per Counter, in its order; 0 when absent.
  private final double in;
  private final double out;
  private final double busy;
  private final double idle;
  private final double backPressured;
  private final int present; // bit c.ordinal() set when counter c was reported

  public SubtaskSample(
      int subtask,
      OptionalDouble recordsIn,
      OptionalDouble recordsOut,
      OptionalDouble busyTimeMs,
      OptionalDouble idleTimeMs,
      OptionalDouble backPressuredTimeMs) {
    this(
        subtask,
        new OptionalDouble[] {recordsIn, recordsOut, busyTimeMs, idleTimeMs, backPressuredTimeMs});
  }

  private SubtaskSample(int subtask, OptionalDouble[] counters) {
    this(
        subtask,
        counters[0].orElse(0),
        counters[1].orElse(0),
        counters[2].orElse(0),
        counters[3].orElse(0),
        counters[4].orElse(0),
        maskOf(counters));
  }

  /** For the window's deltas: absent counters are passed as 0 with their bit clear. */
  SubtaskSample(
      int subtask,
      double in,
      double out,
      double busy,
      double idle,
      double backPressured,
      int present) {
    this.subtask = subtask;
    this.in = in;
    this.out = out;
    this.busy = busy;
    this.idle = idle;
    this.backPressured = backPressured;
    this.present = present;
  }

  private static int maskOf(OptionalDouble[] counters) {
    int mask = 0;
    for (int c = 0; c < counters.length; c++) {
      mask |= counters[c].isPresent() ? 1 << c : 0;
    }
    return mask;
  }

  /** A subtask with every counter present; convenient for tests and simulations. */
  public static SubtaskSample of(
      int subtask, double recordsIn, double recordsOut, double busyMs, double idleMs, double bpMs) {
    return new SubtaskSample(subtask, recordsIn, recordsOut, busyMs, idleMs, bpMs, ALL_PRESENT);
  }

  public int subtask() {
    return subtask;
  }

  public boolean has(Counter c) {
    return (present & (1 << c.ordinal())) != 0;
  }

  /** The counter's value; only meaningful when {@link #has} says it was reported. */
  public double value(Counter c) {
    if (!has(c)) {
      throw new IllegalStateException(c.flinkName() + " of subtask " + subtask + " is absent");
    }
    return raw(c.ordinal());
  }

  /** Bit {@code c.ordinal()} set for every counter reported. */
  int presentMask() {
    return present;
  }

  /** Value of counter ordinal {@code c}, 0 when absent: for loops that checked the mask. */
  double raw(int c) {
    return switch (c) {
      case 0 -> in;
      case 1 -> out;
      case 2 -> busy;
      case 3 -> idle;
      default -> backPressured;
    };
  }

  /**
   * The first counter among {@code mask} (bits by ordinal) that both report and that is lower in
   * {@code later} than here, or -1: a restart check over fields, not a switch per counter.
   */
  int firstDecrease(SubtaskSample later, int mask) {
    int both = present & later.present & mask;
    if ((both & 1) != 0 && later.in < in) {
      return 0;
    }
    if ((both & 2) != 0 && later.out < out) {
      return 1;
    }
    if ((both & 4) != 0 && later.busy < busy) {
      return 2;
    }
    if ((both & 8) != 0 && later.idle < idle) {
      return 3;
    }
    if ((both & 16) != 0 && later.backPressured < backPressured) {
      return 4;
    }
    return -1;
  }

  public OptionalDouble get(Counter c) {
    return has(c) ? OptionalDouble.of(raw(c.ordinal())) : OptionalDouble.empty();
  }

  public OptionalDouble recordsIn() {
    return get(Counter.RECORDS_IN);
  }

  public OptionalDouble recordsOut() {
    return get(Counter.RECORDS_OUT);
  }

  public OptionalDouble busyTimeMs() {
    return get(Counter.BUSY_TIME_MS);
  }

  public OptionalDouble idleTimeMs() {
    return get(Counter.IDLE_TIME_MS);
  }

  public OptionalDouble backPressuredTimeMs() {
    return get(Counter.BACK_PRESSURED_TIME_MS);
  }

  /** Of a window's deltas: busy + idle + back-pressured time, of the times reported. */
  public double reportedTimeMs() {
    return rawOrZero(Counter.BUSY_TIME_MS)
        + rawOrZero(Counter.IDLE_TIME_MS)
        + rawOrZero(Counter.BACK_PRESSURED_TIME_MS);
  }

  /**
   * Of a window's deltas: busy time over {@link #reportedTimeMs()}; 0 where no time was reported
   * (nothing shows the subtask busy).
   */
  public double busyRatio() {
    double time = reportedTimeMs();
    return time <= 0 ? 0 : rawOrZero(Counter.BUSY_TIME_MS) / time;
  }

  // Only for the two sums above: elsewhere an absent counter is never read as 0.
  private double rawOrZero(Counter c) {
    return has(c) ? raw(c.ordinal()) : 0;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof SubtaskSample s) || s.subtask != subtask || s.present != present) {
      return false;
    }
    for (int c = 0; c < COUNTERS.length; c++) {
      if ((present & (1 << c)) != 0
          && Double.doubleToLongBits(raw(c)) != Double.doubleToLongBits(s.raw(c))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = 31 * subtask + present;
    for (int c = 0; c < COUNTERS.length; c++) {
      if ((present & (1 << c)) != 0) {
        h = 31 * h + Double.hashCode(raw(c));
      }
    }
    return h;
  }

  @Override
  public String toString() {
    StringJoiner j = new StringJoiner(", ", "SubtaskSample[", "]");
    j.add("subtask=" + subtask);
    for (Counter c : COUNTERS) {
      j.add(c.flinkName() + "=" + (has(c) ? raw(c.ordinal()) : "absent"));
    }
    return j.toString();
  }

  /** The cumulative per-subtask counters a window is built from. */
  public enum Counter {
    RECORDS_IN("numRecordsIn"),
    RECORDS_OUT("numRecordsOut"),
    BUSY_TIME_MS("accumulateBusyTimeMs"),
    IDLE_TIME_MS("accumulateIdleTimeMs"),
    BACK_PRESSURED_TIME_MS("accumulateBackPressuredTimeMs");

    private final String flinkName;

    Counter(String flinkName) {
      this.flinkName = flinkName;
    }

    /** The task-level metric name in Flink's REST API. */
    public String flinkName() {
      return flinkName;
    }
  }
}
