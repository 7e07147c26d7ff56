package io.ds2.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.KeySpread;
import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.estimate.SplitSpread;
import io.ds2.core.estimate.VertexEstimate;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.window.VertexObservation;
import java.util.OptionalDouble;

/**
 * An estimate as JSON, field by field from the typed result: every number the recommendation was
 * derived from, {@code null} where a value is unknown.
 */
public final class EstimateJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private EstimateJson() {}

  public static String render(JobTopology topology, Estimate estimate) {
    return toNode(topology, estimate).toString();
  }

  public static ObjectNode toNode(JobTopology topology, Estimate estimate) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("jobId", topology.jobId());
    root.put("jobName", topology.jobName());
    ObjectNode window = root.putObject("window");
    window.put("start", estimate.window().start().toString());
    window.put("end", estimate.window().end().toString());
    window.put("seconds", estimate.window().length().toMillis() / 1000.0);
    root.put("targetUtilization", estimate.targetUtilization());
    root.put("complete", estimate.complete());
    ArrayNode vertices = root.putArray("vertices");
    for (VertexEstimate v : estimate.vertices()) {
      ObjectNode n = vertices.addObject();
      n.put("id", v.vertexId());
      n.put("name", v.name());
      n.put("source", v.source());
      n.put("determined", v.determined());
      n.put("currentParallelism", v.currentParallelism());
      n.put("recommendedParallelism", v.recommendedParallelism());
      n.put("maxParallelism", v.maxParallelism());
      put(n, "trueProcessingRatePerInstance", v.trueProcessingRatePerInstance());
      put(n, "selectivity", v.selectivity());
      put(n, "targetInputRate", v.targetInputRate());
      put(n, "targetOutputRate", v.targetOutputRate());
      put(n, "requiredParallelism", v.requiredParallelism());
      VertexObservation obs = estimate.window().vertex(v.vertexId()).orElseThrow();
      ObjectNode observed = n.putObject("observed");
      observed.put("seconds", obs.seconds());
      observed.put("timeBase", obs.timeBase().name());
      observed.put("inputRate", obs.observedInputRate());
      observed.put("outputRate", obs.observedOutputRate());
      put(observed, "busyRatio", obs.busyRatio());
      put(observed, "backPressuredRatio", obs.backPressuredRatio());
      obs.backlog()
          .ifPresent(
              b ->
                  observed
                      .put("pendingRecords", b.pendingAtEnd())
                      .put("arrivalRate", b.arrivalRate())
                      // longer than the window where earlier polls of the run agreed with it
                      .put("arrivalFittedSeconds", b.arrivalSpanSeconds())
                      // of which fitted before the job's last restart (the first window of a run)
                      .put("arrivalFittedBeforeRestartSeconds", b.earlierRunSeconds()));
      obs.recordAge()
          .ifPresent(
              a ->
                  observed
                      .putObject("recordAge")
                      .put("arrivalRate", a.arrivalRate())
                      .put("readRate", a.readRate())
                      .put("growth", a.growth())
                      .put("sinceHeadsSeconds", a.sinceHeadsSeconds())
                      .put("capped", a.capped()));
      SourceDemand d = estimate.demands().get(v.vertexId());
      if (d != null) {
        ObjectNode demand = n.putObject("demand");
        demand.put("targetRate", d.targetRate());
        demand.put("basis", d.basis().name());
        demand.put("observedRate", d.observedRate());
        put(demand, "backlogGrowthRate", d.backlogGrowthRate());
        put(demand, "catchUpRate", d.catchUpRate());
        demand.put("scale", d.scale());
        if (d.shift().isPresent()) {
          demand
              .putObject("shift")
              .put("early", d.shift().get().early())
              .put("late", d.shift().get().late());
        } else {
          demand.putNull("shift");
        }
      }
      if (v.keySpread().isPresent()) {
        keySpread(n.putObject("keySpread"), v.keySpread().get());
      } else {
        n.putNull("keySpread");
      }
      if (v.splitSpread().isPresent()) {
        splitSpread(n.putObject("splitSpread"), v.splitSpread().get());
      } else {
        n.putNull("splitSpread");
      }
      ArrayNode reasons = n.putArray("reasons");
      for (Reason r : v.reasons()) {
        reasons.addObject().put("code", r.code().name()).put("message", r.message());
      }
    }
    return root;
  }

  /** The keyed sizing of a vertex: what binds it, not the per-key-group shares. */
  private static void keySpread(ObjectNode n, KeySpread s) {
    n.put("maxParallelism", s.maxParallelism());
    ArrayNode at = n.putArray("observedAt");
    s.load().observedAt().forEach(at::add);
    n.put("assumedEven", s.load().assumedEven());
    n.put("ds2Parallelism", s.ds2Parallelism());
    n.put("parallelism", s.parallelism());
    n.put("feasible", s.feasible());
    n.putObject("busiest")
        .put("subtask", s.busiestSubtask())
        .put("share", s.busiestShare())
        .put("overEven", s.busiestOverEven())
        .put("firstKeyGroup", s.firstKeyGroup())
        .put("lastKeyGroup", s.lastKeyGroup());
    n.putObject("busiestAtDs2")
        .put("subtask", s.atDs2().subtask())
        .put("firstKeyGroup", s.atDs2().firstKeyGroup())
        .put("lastKeyGroup", s.atDs2().lastKeyGroup())
        .put("instances", s.atDs2().instances());
    ArrayNode hot = n.putArray("hotKeyGroups");
    s.hot().forEach(h -> hot.addObject().put("keyGroup", h.keyGroup()).put("rate", h.load()));
  }

  /** The split sizing of a source: its basis and what binds it. */
  private static void splitSpread(ObjectNode n, SplitSpread s) {
    n.put("basis", s.basis().name());
    n.put("splits", s.splits());
    n.put("assignment", s.assignment());
    ArrayNode at = n.putArray("observedAt");
    s.observedAt().forEach(at::add);
    n.put("ds2Parallelism", s.ds2Parallelism());
    n.put("parallelism", s.parallelism());
    n.put("feasible", s.feasible());
    n.putObject("busiest")
        .put("subtask", s.busiestSubtask())
        .put("splits", s.busiestSplits())
        .put("share", s.busiestShare());
  }

  private static void put(ObjectNode n, String field, OptionalDouble value) {
    if (value.isPresent()) {
      n.put(field, value.getAsDouble());
    } else {
      n.putNull(field);
    }
  }
}
