package io.ds2.core.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** One vertex at one poll: per-subtask readings belong to one subtask each. */
class VertexSampleTest {
  private static final List<SubtaskSample> TWO =
      List.of(SubtaskSample.of(0, 10, 10, 5, 5, 0), SubtaskSample.of(1, 10, 10, 5, 5, 0));

  private static VertexSample withEmitLag(List<OptionalDouble> lag) {
    return new VertexSample(
        "v", "RUNNING", 2, TWO, OptionalDouble.of(3), Optional.empty(), List.of(), lag);
  }

  @Test
  void emitLagReadingsAreOnePerSubtaskOrNone() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> withEmitLag(List.of(OptionalDouble.of(5))));
    assertEquals("vertex v: 1 emit lag readings at parallelism 2", e.getMessage());
    assertEquals(List.of(), withEmitLag(List.of()).emitLagMs());
  }

  @Test
  void aReadingIsFreshByItsCountersNotByHowOldItsRecordsAre() {
    // The window drops a poll equal to the one before (Flink's store not yet refreshed); the lag
    // gauge is read at every poll and must not make a stale poll look new.
    assertEquals(
        withEmitLag(List.of(OptionalDouble.of(5), OptionalDouble.of(6))),
        withEmitLag(List.of(OptionalDouble.of(900), OptionalDouble.empty())));
  }
}
