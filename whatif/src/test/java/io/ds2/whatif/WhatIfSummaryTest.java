package io.ds2.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.recording.Recorded;
import io.ds2.recording.RecordingFormat;
import io.ds2.whatif.WhatIfSummary.PlanRow;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class WhatIfSummaryTest {
  private static PlanRow row(String id, int recommended, int peak, String group) {
    return new PlanRow(
        id,
        id,
        false,
        1,
        recommended,
        peak,
        Instant.EPOCH,
        OptionalDouble.empty(),
        OptionalDouble.empty(),
        group);
  }

  @Test
  void thePlanNeedsTheWidestVertexOfEachSlotSharingGroup() {
    List<PlanRow> plan = List.of(row("a", 2, 4, ""), row("b", 6, 8, ""), row("c", 3, 5, "heavy"));
    assertEquals(9, WhatIfSummary.slots(plan, false));
    assertEquals(13, WhatIfSummary.slots(plan, true));
    assertEquals("2 slot-sharing groups, summed", WhatIfSummary.slotGroups(plan));
  }

  /** The replay makes its own decisions and forecasts: the recorded ones are not its events. */
  @Test
  void recordedDecisionsAndForecastsAreNotListedAsTheRecordingsEvents() {
    WhatIfSummary s = new WhatIfSummary(false);
    for (String kind : List.of("decision", "forecast", "rescale-applied")) {
      s.replayed(
          new Recorded.Event(
              Instant.EPOCH, kind, kind + " happened", RecordingFormat.MAPPER.createObjectNode()));
    }
    assertEquals(1, s.recordedEventCount());
    assertEquals("rescale-applied", s.recordedEvents().get(0).kind());
  }

  @Test
  void inFlinksDefaultGroupTheWidestVertexIsAllItNeeds() {
    List<PlanRow> plan = List.of(row("a", 2, 4, ""), row("b", 6, 8, ""));
    assertEquals(6, WhatIfSummary.slots(plan, false));
    assertEquals(8, WhatIfSummary.slots(plan, true));
    assertEquals("one slot-sharing group", WhatIfSummary.slotGroups(plan));
  }
}
