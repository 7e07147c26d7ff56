package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.policy.ScalingPolicy;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PolicyStateAnnotationTest {
  @Test
  void roundTripsAndIgnoresWhatItCannotRead() {
    ScalingPolicy.State state =
        new ScalingPolicy.State(
            Map.of("v1", new ScalingPolicy.ScaleDown(Instant.parse("2026-01-01T00:00:00Z"), 5)),
            Optional.of(Instant.parse("2026-01-01T00:10:00Z")));
    String text = PolicyStateAnnotation.write(state);
    assertEquals(
        Optional.of(state), PolicyStateAnnotation.read(Map.of(PolicyStateAnnotation.KEY, text)));
    assertTrue(PolicyStateAnnotation.read(Map.of(PolicyStateAnnotation.KEY, "{oops")).isEmpty());
    assertTrue(PolicyStateAnnotation.read(Map.of()).isEmpty());
  }
}
