package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.commandline.ExitCodes;
import io.ds2.core.estimate.ReasonCode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Explanations never contradict the action: replaying a committed recording at twice its demand,
 * every vertex the policy moves to something other than the model's number says why, by code.
 */
class WhatIfExplanationsTest {
  private static final Path RECORDING =
      Path.of("..", "experiments", "results", "suite", "fanin-step-up__flink-as-1.10.jsonl.gz");

  /** Reasons of the policy, as opposed to the model's. */
  private static final Set<String> POLICY =
      Set.of(
          ReasonCode.STEP_LIMITED_UP.name(),
          ReasonCode.STEP_LIMITED_DOWN.name(),
          ReasonCode.ALIGNED_TO_KEY_GROUPS.name(),
          ReasonCode.SCALE_DOWN_BELOW_THRESHOLD.name(),
          ReasonCode.SCALE_UP_WITHIN_HEADROOM.name(),
          ReasonCode.ACTIVATING.name(),
          ReasonCode.ACTIVATION_SMALLEST.name(),
          ReasonCode.DIRECTION_UNSTABLE.name(),
          ReasonCode.SCALE_DOWN_DELAYED.name(),
          ReasonCode.SCALE_DOWN_TO_HIGHEST.name(),
          ReasonCode.SCALE_DOWN_JOINED.name(),
          ReasonCode.NO_SLOT_FREED.name(),
          ReasonCode.BACKING_OFF.name(),
          ReasonCode.DEMAND_SHIFTED.name(),
          ReasonCode.DRAINING.name(),
          ReasonCode.ESTIMATE_INCOMPLETE.name(),
          ReasonCode.CAPACITY_SHORTFALL.name(),
          ReasonCode.POINTWISE_INPUT.name());

  @Test
  void everyTargetOtherThanTheModelsSaysWhyInJsonAndText() throws Exception {
    CliRun json =
        CliRun.of("whatif", "--recording", RECORDING.toString(), "--rate-scale", "2", "-o", "json");
    assertEquals(ExitCodes.OK, json.exitCode(), json.err());
    List<String> unexplained = new ArrayList<>();
    int moved = 0;
    for (JsonNode w : new ObjectMapper().readTree(json.out()).get("windows")) {
      if (!"decision".equals(w.path("type").asText())) {
        continue;
      }
      for (JsonNode v : w.get("vertices")) {
        if (v.get("target").asInt() == v.get("recommended").asInt()) {
          continue;
        }
        moved++;
        boolean said = false;
        for (JsonNode r : v.get("reasons")) {
          said |= POLICY.contains(r.get("code").asText());
        }
        if (!said) {
          unexplained.add(w.get("time").asText() + " " + v.get("name").asText() + " " + v);
        }
      }
    }
    assertTrue(moved >= 3, "the replay moves vertices off the model's number: " + moved);
    assertEquals(List.of(), unexplained);
    CliRun text = CliRun.of("whatif", "--recording", RECORDING.toString(), "--rate-scale", "2");
    assertTrue(text.out().contains("the smallest, 6, is taken"), text.out());
  }
}
