package io.ds2.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.forecast.Outlook;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.VertexDecision;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.loop.EventSink;
import io.ds2.operator.EventRecorder.Reason;
import io.ds2.render.DecisionSummary;
import io.ds2.render.ForecastRendering;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the loop's events into Kubernetes events on the resource, and keeps the last decision as
 * compact JSON in an annotation (per-vertex current, recommended, target; bounded in size), written
 * with the step's other annotations. Reads the resource from the informer cache.
 */
final class EventingListener implements EventSink {
  private static final Set<ReasonCode> LIMITS =
      Set.of(
          ReasonCode.LIMITED_BY_MAX_PARALLELISM_OPTION,
          ReasonCode.LIMITED_BY_VERTEX_MAX_PARALLELISM,
          ReasonCode.SCALING_NOT_PAYING_OFF,
          ReasonCode.SOURCE_SPLIT_LIMIT,
          ReasonCode.SLOT_LIMIT);
  private static final Logger LOG = LoggerFactory.getLogger(EventingListener.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Supplier<GenericKubernetesResource> current;
  private final ResourceAnnotations annotations;
  private final EventRecorder events;

  EventingListener(
      Supplier<GenericKubernetesResource> current,
      ResourceAnnotations annotations,
      EventRecorder events) {
    this.current = current;
    this.annotations = annotations;
    this.events = events;
  }

  private GenericKubernetesResource current() {
    return current.get();
  }

  private void decided(JobTopology t, Decision d, Mode mode) {
    GenericKubernetesResource r = current();
    if (r == null) {
      return;
    }
    String line = DecisionSummary.decision(d, mode);
    // One line per decision in the operator's log: what a platform team greps for first.
    LOG.info("{}/{}: {}", r.getMetadata().getNamespace(), r.getMetadata().getName(), line.strip());
    if (d.action() instanceof Action.Rescale && mode != Mode.ACT) {
      events.normal(r, Reason.ScalingRecommended, line);
    }
    if (d.action() instanceof Action.Hold h && h.reason().code() == ReasonCode.CAPACITY_SHORTFALL) {
      events.warning(r, Reason.CapacityShortfall, h.reason().message());
    }
    for (VertexDecision v : d.vertices()) {
      for (io.ds2.core.estimate.Reason reason : v.reasons()) {
        String message = v.name() + ": " + reason.message();
        if (LIMITS.contains(reason.code())) {
          events.warning(r, Reason.ScalingLimited, message);
        } else if (reason.code() == ReasonCode.HOT_KEY_GROUP
            || reason.code() == ReasonCode.HOT_SPLIT) {
          events.warning(r, Reason.HotKeyGroup, message);
        } else if (reason.code() == ReasonCode.SOURCE_LAG_HIDDEN) {
          events.warning(r, Reason.SourceLagHidden, message);
        } else if ((reason.code() == ReasonCode.UNEVEN_INPUT
                || reason.code() == ReasonCode.UNEVEN_SPLITS)
            && v.target() != v.current()) {
          events.normal(r, Reason.UnevenInput, message);
        }
      }
    }
    annotate(d, mode);
  }

  private void annotate(Decision d, Mode mode) {
    ObjectNode n = JSON.createObjectNode();
    n.put("time", d.time().toString());
    n.put("mode", mode.name());
    n.put("action", d.action() instanceof Action.Rescale ? "rescale" : "hold");
    if (d.action() instanceof Action.Hold h) {
      n.put("reason", h.reason().code().name());
    }
    var vertices = n.putArray("vertices");
    for (VertexDecision v : d.vertices()) {
      vertices
          .addObject()
          .put("name", v.name())
          .put("current", v.current())
          .put("recommended", v.recommended())
          .put("target", v.target());
    }
    String value = n.toString();
    if (value.length() > 16_000) {
      value = value.substring(0, 16_000); // annotations are bounded; the decision log has it all
    }
    annotations.set(JobSettings.LAST_DECISION, value);
  }

  private void rescaled(JobTopology t, Map<String, Integer> requested, RescaleOutcome outcome) {
    GenericKubernetesResource r = current();
    if (r == null) {
      return;
    }
    String line = DecisionSummary.rescale(outcome).strip();
    LOG.info("{}/{}: {}", r.getMetadata().getNamespace(), r.getMetadata().getName(), line);
    if (outcome instanceof RescaleOutcome.Applied) {
      events.normal(r, Reason.ScalingApplied, line);
    } else if (outcome instanceof RescaleOutcome.NotApplied n
        && n.cause() == RescaleOutcome.Cause.CHANGED_BY_OTHERS) {
      events.warning(r, Reason.OverridesReverted, n.message());
    } else {
      events.warning(r, Reason.ScalingSkipped, line);
    }
  }

  private void problem(ScalerEvent.Problem p) {
    GenericKubernetesResource r = current();
    // Advisor mode follows a rescale the cluster cannot do, already a ScalingSkipped event.
    if (r != null && p.kind() == ScalerEvent.Problem.Kind.SETTING_IGNORED) {
      events.warning(r, Reason.InvalidAnnotation, p.text());
    } else if (r != null && p.kind() == ScalerEvent.Problem.Kind.ROLLED_BACK) {
      events.warning(r, Reason.RescaleRolledBack, p.text());
    } else if (r != null && p.kind() != ScalerEvent.Problem.Kind.NOW_ADVISING) {
      events.warning(r, Reason.MetricsNotReady, p.text());
    }
  }

  /**
   * A forecast above the measured demand that would change a vertex's parallelism: a Normal event
   * (advise: what it would do; act: what it does), in the words of the summary's forecast line.
   */
  private void forecasted(JobTopology t, ScalerEvent.Forecasted f) {
    GenericKubernetesResource r = current();
    if (r == null
        || !(f.outlook() instanceof Outlook.Ahead)
        || f.wouldNeed().isEmpty()
        || f.wouldNeed().equals(f.measuredNeed())) {
      return;
    }
    events.normal(r, Reason.ForecastAhead, ForecastRendering.line(t.graph(), f).strip());
  }

  @Override
  public void on(JobTopology topology, ScalerEvent event) {
    if (event instanceof ScalerEvent.Forecasted f) {
      forecasted(topology, f);
    } else if (event instanceof ScalerEvent.Decided d) {
      decided(topology, d.decision(), d.mode());
    } else if (event instanceof ScalerEvent.Rescaled r) {
      rescaled(topology, r.requested(), r.outcome());
    } else if (event instanceof ScalerEvent.Problem p) {
      problem(p);
    }
  }
}
