package io.ds2.whatif;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.core.policy.Decision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.recording.Recorded;
import io.ds2.render.DecisionJson;
import io.ds2.whatif.WhatIfSummary.PlanRow;
import io.ds2.whatif.WhatIfSummary.WouldRescale;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A replay as one JSON document, written as it goes: windows are streamed (one decision object
 * each, as in the decision log), so output of a long replay needs no memory of its own.
 */
public final class WhatIfJson implements WhatIf.Listener {
  // The time of the last replayed sample: when a problem of the replay happened.
  private Instant replayedTo;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final JsonGenerator json;

  public WhatIfJson(Writer out) {
    try {
      this.json = MAPPER.getFactory().createGenerator(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public void start(Recorded.Header h, String input, Map<String, Double> given, double scale) {
    io(
        () -> {
          json.writeStartObject();
          json.writeObjectFieldStart("recording");
          json.writeStringField("input", input);
          json.writeStringField("jobId", h.jobId());
          json.writeStringField("jobName", h.jobName());
          json.writeStringField("flinkVersion", h.flinkVersion().orElse(null));
          json.writeStringField("source", h.source());
          json.writeStringField("createdAt", h.createdAt().toString());
          json.writeEndObject();
          json.writeObjectFieldStart("scenario");
          json.writeNumberField("rateScale", scale);
          json.writeObjectFieldStart("sourceRates");
          for (Map.Entry<String, Double> e : given.entrySet()) {
            json.writeNumberField(e.getKey(), e.getValue());
          }
          json.writeEndObject();
          json.writeEndObject();
          json.writeArrayFieldStart("windows");
        });
  }

  private void decided(JobTopology topology, Decision d) {
    io(() -> MAPPER.writeTree(json, DecisionJson.decision(topology, d, Mode.DRY_RUN)));
  }

  private void problem(Instant time, String message) {
    io(
        () -> {
          json.writeStartObject();
          json.writeStringField("type", "problem");
          json.writeStringField("time", time.toString());
          json.writeStringField("message", message);
          json.writeEndObject();
        });
  }

  @Override
  public void replayed(Recorded record) {
    if (record instanceof Recorded.Sample s) {
      replayedTo = s.sample().time();
    }
  }

  /** Counterfactual runs to write with the rest ({@code whatif --side-by-side}). */
  public void sideBySide(java.util.Map<String, io.ds2.whatif.sim.Outcome> runs) {
    this.sideBySide = runs;
  }

  private java.util.Map<String, io.ds2.whatif.sim.Outcome> sideBySide;

  public void finish(
      WhatIfSummary s, WhatIf.Totals totals, long skippedLines, String firstSkipped) {
    io(
        () -> {
          json.writeEndArray();
          json.writeArrayFieldStart("plan");
          for (PlanRow r : s.plan()) {
            json.writeStartObject();
            json.writeStringField("id", r.id());
            json.writeStringField("name", r.name());
            json.writeBooleanField("source", r.source());
            json.writeNumberField("current", r.current());
            json.writeNumberField("recommended", r.recommended());
            json.writeNumberField("peak", r.peak());
            json.writeStringField("peakAt", r.peakAt().toString());
            number("trueRatePerInstance", r.trueRatePerInstance());
            number("targetInputRate", r.targetInputRate());
            json.writeEndObject();
          }
          json.writeEndArray();
          json.writeObjectFieldStart("slots");
          json.writeNumberField("lastWindow", WhatIfSummary.slots(s.plan(), false));
          json.writeNumberField("peak", WhatIfSummary.slots(s.plan(), true));
          json.writeEndObject();
          json.writeArrayFieldStart("rescales");
          for (WouldRescale r : s.rescales()) {
            json.writeStartObject();
            json.writeStringField("time", r.time().toString());
            json.writeObjectField("from", r.from());
            json.writeObjectField("to", r.to());
            json.writeStringField("why", r.why());
            json.writeNumberField("windows", r.windows());
            json.writeEndObject();
          }
          json.writeEndArray();
          json.writeObjectFieldStart("totals");
          json.writeNumberField("samples", totals.samples());
          json.writeNumberField("windows", totals.decisions());
          json.writeNumberField("problems", totals.problems());
          json.writeNumberField("recordedEvents", s.recordedEventCount());
          json.writeNumberField("skippedLines", skippedLines);
          json.writeStringField("firstSkipped", firstSkipped);
          json.writeEndObject();
          if (sideBySide != null) {
            json.writeObjectFieldStart("sideBySide");
            for (var e : sideBySide.entrySet()) {
              json.writeObjectFieldStart(e.getKey());
              json.writeNumberField("behindSeconds", e.getValue().behindSeconds());
              json.writeNumberField("peakBacklog", e.getValue().peakBacklog());
              json.writeNumberField("slotSeconds", e.getValue().slotSeconds());
              json.writeNumberField("rescales", e.getValue().rescales());
              json.writeNumberField("forecastWindows", e.getValue().forecastWindows());
              json.writeStringField("neverForecast", e.getValue().neverForecast().orElse(null));
              json.writeEndObject();
            }
            json.writeEndObject();
          }
          json.writeEndObject();
          json.writeRaw('\n');
          json.flush();
        });
  }

  private void number(String field, OptionalDouble v) throws IOException {
    if (v.isPresent()) {
      json.writeNumberField(field, v.getAsDouble());
    } else {
      json.writeNullField(field);
    }
  }

  private interface Io {
    void run() throws IOException;
  }

  private static void io(Io step) {
    try {
      step.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void on(JobTopology topology, ScalerEvent event) {
    if (event instanceof ScalerEvent.Decided d) {
      decided(topology, d.decision());
    } else if (event instanceof ScalerEvent.Problem p) {
      problem(replayedTo, p.text());
    }
  }
}
