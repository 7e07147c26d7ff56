package io.ds2.core.scaler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ds2.core.window.Backlog;
import io.ds2.core.window.ObservationWindow;
import io.ds2.core.window.TimeBase;
import io.ds2.core.window.VertexObservation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ArrivalCarryTest {
  private static final Instant T0 = Instant.parse("2026-12-02T16:05:00Z");
  private static final ArrivalCarry.Run BEFORE = new ArrivalCarry.Run(T0, OptionalLong.of(0));
  private static final ArrivalCarry.Run AFTER =
      new ArrivalCarry.Run(T0.plusSeconds(50), OptionalLong.of(0));

  private static ObservationWindow window(Instant end, Backlog b) {
    VertexObservation source =
        new VertexObservation(
            "s",
            1,
            10,
            TimeBase.TASK_TIME,
            0,
            b.arrivalRate() * 10,
            OptionalDouble.of(0),
            OptionalDouble.of(10_000),
            OptionalDouble.of(0),
            List.of(),
            Optional.of(b));
    return new ObservationWindow(end.minusSeconds(10), end, Map.of("s", source));
  }

  /** A fit over the window alone, halves agreeing, noise as given. */
  private static Backlog fit(double rate, double seconds, double noise) {
    return new Backlog(
        0,
        0,
        rate,
        11,
        10,
        OptionalDouble.of(rate),
        OptionalDouble.of(rate),
        seconds,
        noise,
        0,
        false);
  }

  private static Backlog carried(ObservationWindow w) {
    return w.vertex("s").orElseThrow().backlog().orElseThrow();
  }

  @Test
  void aNoisyFirstWindowAfterARestartDoesNotLetAnOldLoadIn() {
    // On the Kafka step-up the load doubled across a restart; the first window read 771/s with
    // halves so noisy that they could be 400/s apart. The 400/s from before stays out.
    ArrivalCarry carry = new ArrivalCarry(Duration.ofMinutes(3), 30);
    carry.apply(window(T0.plusSeconds(40), fit(400, 30, 0)), BEFORE);
    Backlog b = carried(carry.apply(window(T0.plusSeconds(70), fit(771, 10, 400)), AFTER));
    assertEquals(771, b.arrivalRate(), 1e-9);
    assertEquals(0, b.earlierRunSeconds(), 1e-9);
  }

  @Test
  void theSameLoadWithinATenthIsAveragedByTheSecondsEachCovers() {
    ArrivalCarry carry = new ArrivalCarry(Duration.ofMinutes(3), 30);
    carry.apply(window(T0.plusSeconds(40), fit(400, 30, 0)), BEFORE);
    Backlog b = carried(carry.apply(window(T0.plusSeconds(70), fit(420, 10, 5)), AFTER));
    assertEquals((420 * 10 + 400 * 20) / 30.0, b.arrivalRate(), 1e-9);
    assertEquals(20, b.earlierRunSeconds(), 1e-9);
  }
}
