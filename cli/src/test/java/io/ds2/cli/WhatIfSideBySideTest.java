package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.commandline.ExitCodes;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code whatif --side-by-side} runs the recorded demand again on the job learnt from a committed
 * recording (the Flink autoscaler's run of the fan-in step-up, which started at parallelism 1): ds2
 * acting on it keeps the simulated job up after its first steps, reactive and predictive alike on a
 * recording far shorter than the forecast's two periods.
 */
class WhatIfSideBySideTest {
  private static final Path RECORDING =
      Path.of(
          "..",
          "experiments",
          "results",
          "kafka-default-fetch-hidden-heads",
          "fanin-step-up-long__ds2-defaults-u0.7.jsonl.gz");

  @Test
  void bothRunsAreReportedInTextAndJson() throws Exception {
    CliRun text = CliRun.of("whatif", "--recording", RECORDING.toString(), "--side-by-side");
    assertEquals(ExitCodes.OK, text.exitCode(), text.err());
    assertTrue(text.out().contains("Side by side: the recorded demand"), text.out());
    assertTrue(text.out().contains("  reactive "), text.out());
    assertTrue(text.out().contains("  predictive "), text.out());

    CliRun json =
        CliRun.of("whatif", "--recording", RECORDING.toString(), "--side-by-side", "-o", "json");
    assertEquals(ExitCodes.OK, json.exitCode(), json.err());
    JsonNode runs = new ObjectMapper().readTree(json.out()).get("sideBySide");
    JsonNode reactive = runs.get("reactive");
    JsonNode predictive = runs.get("predictive");
    assertTrue(reactive.get("rescales").asInt() >= 1, runs.toString());
    assertTrue(reactive.get("slotSeconds").asDouble() > 0, runs.toString());
    // Behind while it climbs from parallelism 1, not for the whole recording.
    double seconds =
        new ObjectMapper().readTree(json.out()).get("totals").get("samples").asDouble();
    assertTrue(reactive.get("behindSeconds").asDouble() < seconds, runs.toString());
    // No forecast on a recording shorter than two periods: the two runs are the same, and the
    // predictive one says why it only reacted.
    for (String figure : new String[] {"behindSeconds", "peakBacklog", "slotSeconds", "rescales"}) {
      assertEquals(reactive.get(figure), predictive.get(figure), figure);
    }
    assertEquals(0, predictive.get("forecastWindows").asInt());
    assertTrue(
        predictive.get("neverForecast").asText().contains("steps needed"), predictive.toString());
    assertTrue(reactive.get("neverForecast").isNull(), reactive.toString());
    assertTrue(
        text.out().contains("  predictive had no forecast in any window, so it only reacted: "),
        text.out());
  }
}
