package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class StartSpreadTest {
  private static final Instant STARTED = Instant.parse("2026-12-02T10:00:00.400Z");
  private static final Duration WINDOW = Duration.ofSeconds(30);

  private static GenericKubernetesResource created(String uid, String at) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("flink.apache.org/v1beta1")
        .withKind("FlinkDeployment")
        .withNewMetadata()
        .withName("job")
        .withNamespace("ns")
        .withUid(uid)
        .withCreationTimestamp(at)
        .endMetadata()
        .build();
  }

  @Test
  void jobsFoundAtStartAreSpreadEvenlyOverTheirFirstWindow() {
    // A fixed set of random (version-4-like) uids, as the API server hands out: drawn fresh on
    // every run, some bin of 100 expected would leave 70..130 about once in a hundred runs.
    Random uids = new Random(20261202L);
    int[] perTenth = new int[10];
    for (int i = 0; i < 1000; i++) {
      Duration d =
          StartSpread.delay(
              created(
                  new UUID(uids.nextLong(), uids.nextLong()).toString(), "2026-12-01T08:00:00Z"),
              STARTED,
              STARTED.plusMillis(300),
              WINDOW);
      assertTrue(!d.isNegative() && d.compareTo(WINDOW) < 0, d.toString());
      perTenth[(int) (d.toMillis() * 10 / WINDOW.toMillis())]++;
    }
    for (int n : perTenth) {
      assertTrue(n >= 70 && n <= 130, Arrays.toString(perTenth));
    }
  }

  @Test
  void aJobKeepsItsPointOfTheWindowAcrossOperatorRestarts() {
    GenericKubernetesResource r =
        created("5e0c1d52-7a1b-4c1e-9d3f-0a1b2c3d4e5f", "2026-12-01T08:00:00Z");
    Instant later = STARTED.plus(Duration.ofHours(3));
    assertEquals(
        StartSpread.delay(r, STARTED, STARTED, WINDOW), StartSpread.delay(r, later, later, WINDOW));
  }

  @Test
  void aJobCreatedWhileTheOperatorRunsStartsAtOnce() {
    assertEquals(
        Duration.ZERO,
        StartSpread.delay(created("a", "2026-12-02T10:05:00Z"), STARTED, STARTED, WINDOW));
    // Stamped in the second the operator started: not surely older than the operator.
    assertEquals(
        Duration.ZERO,
        StartSpread.delay(created("b", "2026-12-02T10:00:00Z"), STARTED, STARTED, WINDOW));
  }

  @Test
  void aLoopStartingOverAfterTheFirstWindowStartsAtOnce() {
    // An annotation change or an opt-in long after the operator started: no storm to avoid.
    GenericKubernetesResource old = created("c", "2026-12-01T08:00:00Z");
    assertEquals(Duration.ZERO, StartSpread.delay(old, STARTED, STARTED.plus(WINDOW), WINDOW));
    assertTrue(StartSpread.delay(old, STARTED, STARTED.plusSeconds(1), WINDOW).toMillis() > 0);
  }

  @Test
  void aResourceWithoutACreationStampIsTakenAsFoundAtStart() {
    GenericKubernetesResource r = created("d", null);
    Duration d = StartSpread.delay(r, STARTED, STARTED, WINDOW);
    assertEquals(d, StartSpread.delay(created("d", "not a time"), STARTED, STARTED, WINDOW));
    assertTrue(d.toMillis() > 0 && d.compareTo(WINDOW) < 0, d.toString());
  }
}
