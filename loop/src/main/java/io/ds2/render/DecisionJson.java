package io.ds2.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.estimate.Reason;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.VertexDecision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.ScalerEvent;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/** Decisions and rescale outcomes as one-line JSON objects for the decision log. */
public final class DecisionJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private DecisionJson() {}

  public static ObjectNode decision(JobTopology t, Decision d, Mode mode) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("type", "decision");
    root.put("time", d.time().toString());
    root.put("jobId", t.jobId());
    root.put("jobName", t.jobName());
    root.put("mode", mode.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    ObjectNode action = root.putObject("action");
    if (d.action() instanceof Action.Rescale r) {
      action.put("type", "rescale");
      ObjectNode p = action.putObject("parallelism");
      r.parallelism().forEach(p::put);
    } else {
      Reason why = ((Action.Hold) d.action()).reason();
      action.put("type", "hold");
      action.put("code", why.code().name());
      action.put("message", why.message());
    }
    var vertices = root.putArray("vertices");
    for (VertexDecision v : d.vertices()) {
      ObjectNode n = vertices.addObject();
      n.put("id", v.vertexId());
      n.put("name", v.name());
      n.put("source", v.source());
      n.put("current", v.current());
      n.put("recommended", v.recommended());
      n.put("target", v.target());
      var reasons = n.putArray("reasons");
      v.reasons()
          .forEach(
              r -> reasons.addObject().put("code", r.code().name()).put("message", r.message()));
    }
    root.set("estimate", EstimateJson.toNode(t, d.estimate()));
    return root;
  }

  /** A problem the loop reported (and goes on from). */
  public static ObjectNode problem(ScalerEvent.Problem p, Instant time) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("type", "problem");
    root.put("time", time.toString());
    root.put("kind", p.kind().name());
    root.put("message", p.text());
    return root;
  }

  public static ObjectNode rescale(
      JobTopology t, Map<String, Integer> requested, RescaleOutcome outcome, Instant time) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("type", "rescale");
    root.put("time", time.toString());
    root.put("jobId", t.jobId());
    ObjectNode req = root.putObject("requested");
    requested.forEach(req::put);
    if (outcome instanceof RescaleOutcome.Applied a) {
      root.put("outcome", "applied");
      root.put("seconds", a.took().toMillis() / 1000.0);
      root.put("downtimeSeconds", a.downtime().toMillis() / 1000.0);
    } else if (outcome instanceof RescaleOutcome.NotApplied n) {
      root.put("outcome", "not-applied");
      root.put("cause", n.cause().name().toLowerCase(Locale.ROOT).replace('_', '-'));
      ObjectNode running = root.putObject("running");
      n.running().forEach(running::put);
      root.put("message", n.message());
    } else if (outcome instanceof RescaleOutcome.Unsupported u) {
      root.put("outcome", "unsupported");
      root.put("message", u.message());
    } else {
      root.put("outcome", "failed");
      root.put("message", ((RescaleOutcome.Failed) outcome).message());
    }
    return root;
  }
}
