package io.ds2.core.policy;

import io.ds2.core.estimate.Reason;
import java.util.List;

/**
 * One vertex's part of a decision.
 *
 * @param recommended what the DS2 estimate (or the learned cost curve) asks for this window
 * @param target what the policy decided to run it at now
 * @param reasons why {@code recommended} and {@code target} are what they are
 */
public record VertexDecision(
    String vertexId,
    String name,
    boolean source,
    int current,
    int recommended,
    int target,
    List<Reason> reasons) {
  public VertexDecision {
    reasons = List.copyOf(reasons);
  }
}
