package io.ds2.core.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.window.SubtaskSample.Counter;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class SubtaskSampleTest {
  private static SubtaskSample withoutBusy(double in) {
    return new SubtaskSample(
        3,
        OptionalDouble.of(in),
        OptionalDouble.of(20),
        OptionalDouble.empty(),
        OptionalDouble.of(40),
        OptionalDouble.of(0));
  }

  @Test
  void anAbsentCounterStaysAbsentAndIsNeverReadAsZero() {
    SubtaskSample s = withoutBusy(10);
    assertFalse(s.has(Counter.BUSY_TIME_MS));
    assertTrue(s.busyTimeMs().isEmpty());
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> s.value(Counter.BUSY_TIME_MS));
    assertEquals("accumulateBusyTimeMs of subtask 3 is absent", e.getMessage());
    assertTrue(s.has(Counter.BACK_PRESSURED_TIME_MS), "a reported 0 is present");
    assertEquals(0, s.value(Counter.BACK_PRESSURED_TIME_MS));
  }

  @Test
  void everyCounterReadsBackWhatWasReported() {
    SubtaskSample s = SubtaskSample.of(1, 10, 20, 30, 40, 50);
    double[] expected = {10, 20, 30, 40, 50};
    for (Counter c : Counter.values()) {
      assertEquals(expected[c.ordinal()], s.value(c), c.name());
      assertEquals(OptionalDouble.of(expected[c.ordinal()]), s.get(c), c.name());
    }
    assertEquals(1, s.subtask());
  }

  @Test
  void equalSamplesAreEqualAndAbsenceCounts() {
    assertEquals(withoutBusy(10), withoutBusy(10));
    assertEquals(withoutBusy(10).hashCode(), withoutBusy(10).hashCode());
    assertNotEquals(withoutBusy(10), withoutBusy(11));
    // Absent is not 0: a reading that lacks busy time differs from one that reports 0 ms.
    assertNotEquals(withoutBusy(10), SubtaskSample.of(3, 10, 20, 0, 40, 0));
    assertTrue(withoutBusy(10).toString().contains("accumulateBusyTimeMs=absent"));
  }

  @Test
  void busyRatioIsBusyOverTheTimesReported() {
    // busy 30, idle 40, back-pressured 50 ms: 30 / 120
    SubtaskSample s = SubtaskSample.of(1, 10, 20, 30, 40, 50);
    assertEquals(120, s.reportedTimeMs(), 1e-9);
    assertEquals(0.25, s.busyRatio(), 1e-9);
    // No time at all: nothing shows it busy.
    SubtaskSample none = SubtaskSample.of(2, 10, 20, 0, 0, 0);
    assertEquals(0, none.reportedTimeMs(), 1e-9);
    assertEquals(0, none.busyRatio(), 1e-9);
  }
}
