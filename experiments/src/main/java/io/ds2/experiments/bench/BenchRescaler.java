package io.ds2.experiments.bench;

import io.ds2.controller.recording.Recorded;
import io.ds2.controller.recording.RecordingWriter;
import io.ds2.flink.RescaleOutcome;
import io.ds2.flink.RestRescaler;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * The one rescale mechanism every controller uses: Flink's REST rescale (all vertices, verified),
 * with each request and outcome written to the run's recording as events, so steps and downtime are
 * counted the same way for every controller.
 */
public final class BenchRescaler {
  private final RestRescaler rest;
  private final RecordingWriter recording;
  private final Clock clock;

  public BenchRescaler(RestRescaler rest, RecordingWriter recording, Clock clock) {
    this.rest = rest;
    this.recording = recording;
    this.clock = clock;
  }

  public RescaleOutcome rescale(String jobId, Map<String, Integer> target, Duration timeout)
      throws InterruptedException {
    var details = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
    target.forEach(details.putObject("requested")::put);
    recording.write(
        new Recorded.Event(clock.instant(), "rescale-requested", "requested " + target, details));
    RescaleOutcome outcome = rest.rescale(jobId, target, timeout);
    var result = details.deepCopy();
    String kind;
    if (outcome instanceof RescaleOutcome.Applied a) {
      kind = "rescale-applied";
      result.put("seconds", a.took().toMillis() / 1000.0);
      result.put("downtimeSeconds", a.downtime().toMillis() / 1000.0);
    } else {
      kind = "rescale-not-applied";
      result.put("outcome", outcome.toString());
    }
    recording.write(new Recorded.Event(clock.instant(), kind, outcome.toString(), result));
    return outcome;
  }
}
