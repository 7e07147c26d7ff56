package io.ds2.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PausesTest {
  private static final Instant T = Instant.parse("2026-12-07T08:00:00Z");

  @Test
  void aTickLateByAtLeastTheBoundIsAPauseSpanningTheGap() {
    Pauses p = new Pauses(Duration.ofSeconds(2));
    p.ticked(50_000_000, T); // on time
    p.ticked(1_500_000_000, T.plusSeconds(10)); // 1.45 s late: timer slack on a busy machine
    p.ticked(15_050_000_000L, T.plusSeconds(30)); // the VM stood still for 15 s
    List<Pauses.Pause> all = p.all();
    assertEquals(1, all.size());
    assertEquals(T.plusMillis(14_950), all.get(0).from());
    assertEquals(Duration.ofMillis(15_050), all.get(0).length());
    assertEquals(all, p.within(T.plusSeconds(20), T.plusSeconds(40)));
    assertEquals(List.of(), p.within(T.plusSeconds(31), T.plusSeconds(60)));
    assertEquals(List.of(), p.within(T, T.plusSeconds(14)));
  }
}
