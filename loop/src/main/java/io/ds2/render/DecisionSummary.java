package io.ds2.render;

import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.policy.Action;
import io.ds2.core.policy.Decision;
import io.ds2.core.policy.VertexDecision;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.RescaleOutcome;
import java.util.Locale;
import java.util.stream.Collectors;

/** One readable line per decision or rescale outcome, for stdout. */
public final class DecisionSummary {
  private DecisionSummary() {}

  public static String decision(Decision d, Mode mode) {
    String demand =
        d.vertices().stream()
            .filter(VertexDecision::source)
            .map(
                v -> {
                  SourceDemand s = d.estimate().demands().get(v.vertexId());
                  return v.name().replaceFirst("^Source: ", "")
                      + String.format(Locale.ROOT, " %.1f/s", s.targetRate());
                })
            .collect(Collectors.joining(", "));
    if (d.action() instanceof Action.Rescale) {
      String changes =
          d.vertices().stream()
              .filter(v -> v.target() != v.current())
              .map(v -> v.name() + " " + v.current() + "->" + v.target())
              .collect(Collectors.joining(", "));
      String how =
          switch (mode) {
            case ACT -> "RESCALE";
            case DRY_RUN -> "RESCALE (dry run: not applied)";
            case ADVISOR -> "RESCALE (advisor mode: not applied)";
          };
      return how + " " + changes + " | demand " + demand;
    }
    Action.Hold hold = (Action.Hold) d.action();
    return "HOLD "
        + hold.reason().code().name().toLowerCase(Locale.ROOT).replace('_', ' ')
        + ": "
        + hold.reason().message()
        + " | demand "
        + demand;
  }

  public static String rescale(RescaleOutcome outcome) {
    if (outcome instanceof RescaleOutcome.Applied a) {
      return String.format(
          Locale.ROOT,
          "  applied: job runs at the new parallelism after %.1f s (down at most %.1f s)",
          a.took().toMillis() / 1000.0,
          a.downtime().toMillis() / 1000.0);
    }
    if (outcome instanceof RescaleOutcome.NotApplied n) {
      return "  NOT applied: " + n.message() + "; backing off";
    }
    if (outcome instanceof RescaleOutcome.Unsupported u) {
      return "  unsupported: " + u.message();
    }
    return "  failed: " + ((RescaleOutcome.Failed) outcome).message() + "; backing off";
  }
}
