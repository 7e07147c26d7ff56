package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.policy.ScalingPolicy;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PolicyStateAnnotationTest {
  private static StateAnnotation.Read<ScalingPolicy.State> read(String text) {
    return PolicyStateAnnotation.read(Map.of(PolicyStateAnnotation.KEY, text)).orElseThrow();
  }

  @Test
  void roundTrips() {
    ScalingPolicy.State state =
        new ScalingPolicy.State(
            Map.of("v1", new ScalingPolicy.ScaleDown(Instant.parse("2026-01-01T00:00:00Z"), 5)),
            Optional.of(Instant.parse("2026-01-01T00:10:00Z")));
    String text = PolicyStateAnnotation.write(state);
    assertEquals(state, assertInstanceOf(StateAnnotation.Restored.class, read(text)).value());
    assertEquals(
        new ScalingPolicy.State(Map.of(), Optional.empty()),
        assertInstanceOf(StateAnnotation.Restored.class, read("{\"scaleDowns\":{}}")).value());
    assertTrue(PolicyStateAnnotation.read(Map.of()).isEmpty());
  }

  @Test
  void whatDs2DidNotWriteIsUnreadableAndSaysWhy() {
    for (String bad :
        new String[] {
          "{oops",
          "[]",
          "{\"scaleDowns\":3}",
          "{\"scaleDowns\":{\"v1\":{\"highest\":5}}}",
          "{\"scaleDowns\":{\"v1\":{\"since\":\"yesterday\",\"highest\":5}}}",
          "{\"scaleDowns\":{\"v1\":{\"since\":\"2026-01-01T00:00:00Z\",\"highest\":\"5\"}}}",
          "{\"scaleDowns\":{},\"backoffUntil\":\"soon\"}"
        }) {
      String why = assertInstanceOf(StateAnnotation.Unreadable.class, read(bad), bad).why();
      assertTrue(why.startsWith("annotation ds2.io/policy-state is unreadable ("), why);
      assertTrue(
          why.endsWith(
              "the policy starts fresh: pending scale-downs wait out their delay"
                  + " again, no back-off is kept"),
          why);
    }
  }
}
