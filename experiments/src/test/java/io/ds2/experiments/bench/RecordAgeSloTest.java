package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/** Behind while the age of the records the sources emit grows by more than 1 % of the time. */
class RecordAgeSloTest {
  private static final Instant T0 = Instant.parse("2026-12-06T00:00:00Z");

  /** 600 polls a second apart; the source's two subtasks' ages (seconds) as {@code age} gives. */
  private static List<KeepsUp.Sampled> run(DoubleUnaryOperator age, boolean withAge) {
    List<KeepsUp.Sampled> samples = new ArrayList<>();
    for (int t = 0; t <= 600; t++) {
      double ms = 1000 * age.applyAsDouble(t);
      List<OptionalDouble> lags =
          withAge ? List.of(OptionalDouble.of(ms), OptionalDouble.of(ms / 2)) : List.of();
      VertexSample s =
          new VertexSample(
              "s",
              "RUNNING",
              2,
              List.of(
                  SubtaskSample.of(0, 0, t, 0, 1000 * t, 0),
                  SubtaskSample.of(1, 0, t, 0, 1000 * t, 0)),
              OptionalDouble.empty(),
              Optional.empty(),
              List.of(),
              lags);
      samples.add(
          new KeepsUp.Sampled(
              t,
              new JobSample(T0.plusSeconds(t), "RUNNING", T0, OptionalLong.of(0), Map.of("s", s))));
    }
    return samples;
  }

  @Test
  void anAgeGrowingFasterThanOnePercentOfTheTimeIsBehind() {
    // Fresh records (20 ms old) but for 300 .. 400 s, when they age 5 % of the time (5 s in all),
    // then drain back.
    DoubleUnaryOperator age =
        t -> t < 300 ? 0.02 : t < 400 ? 0.02 + 0.05 * (t - 300) : Math.max(0.02, 5 - (t - 400));
    double behind = RecordAgeSlo.behindSeconds(run(age, true), Set.of("s"), 0).getAsDouble();
    // The trend over the trailing minute passes 1 % a few seconds into the growth and stays above
    // it until the drain's fall outweighs it.
    assertTrue(behind > 80 && behind < 130, "behind " + behind);
    assertEquals(
        0,
        RecordAgeSlo.behindSeconds(run(age, true), Set.of("s"), 450).getAsDouble(),
        1e-9,
        "judged from 450 s on: the drain only");
  }

  @Test
  void anAgeGrowingSlowerThanOnePercentIsNot() {
    // 0.5 % of the time: a minute adds 0.3 s.
    DoubleUnaryOperator age = t -> 0.02 + 0.005 * t;
    assertEquals(0, RecordAgeSlo.behindSeconds(run(age, true), Set.of("s"), 0).getAsDouble());
  }

  @Test
  void aRecordingWithoutAgesHasNoVerdict() {
    assertTrue(RecordAgeSlo.behindSeconds(run(t -> 0, false), Set.of("s"), 0).isEmpty());
  }
}
