package io.ds2.core.estimate;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The DS2 result for one vertex, with every input that produced it.
 *
 * @param determined false if the vertex could not be estimated; then the recommendation is the
 *     current parallelism and the reasons say why
 * @param targetInputRate in*: the rate the vertex must absorb (records/s); for a source, the
 *     records arriving that it must read (its demand); empty when undetermined
 * @param targetOutputRate out*: what it then emits (records/s)
 * @param trueProcessingRatePerInstance records per busy second of one instance
 * @param selectivity output records per input record
 * @param requiredParallelism in* / (true rate x target utilization), before rounding and bounds
 * @param recommendedParallelism the parallelism to run at
 * @param keySpread how the input spreads over the subtasks, for a vertex with a keyed input; empty
 *     when DS2's even spread applies (a pointwise input is checked by the policy, against the
 *     producer's target)
 * @param splitSpread for a source vertex sized by its splits, how they spread over its subtasks
 */
public record VertexEstimate(
    String vertexId,
    String name,
    boolean source,
    boolean determined,
    int currentParallelism,
    int maxParallelism,
    OptionalDouble targetInputRate,
    OptionalDouble targetOutputRate,
    OptionalDouble trueProcessingRatePerInstance,
    OptionalDouble selectivity,
    OptionalDouble requiredParallelism,
    int recommendedParallelism,
    List<Reason> reasons,
    Optional<KeySpread> keySpread,
    Optional<SplitSpread> splitSpread) {
  public VertexEstimate {
    reasons = List.copyOf(reasons);
  }

  public boolean changes() {
    return recommendedParallelism != currentParallelism;
  }

  /** This estimate with {@code reason} added to its reasons. */
  public VertexEstimate withReason(Reason reason) {
    return recommending(recommendedParallelism, reason);
  }

  /**
   * This estimate recommending {@code parallelism} instead, with {@code reason} saying why (the
   * rates and the equation's parallelism stay as measured).
   */
  public VertexEstimate recommending(int parallelism, Reason reason) {
    List<Reason> more = new java.util.ArrayList<>(reasons);
    more.add(reason);
    return new VertexEstimate(
        vertexId,
        name,
        source,
        determined,
        currentParallelism,
        maxParallelism,
        targetInputRate,
        targetOutputRate,
        trueProcessingRatePerInstance,
        selectivity,
        requiredParallelism,
        parallelism,
        more,
        keySpread,
        splitSpread);
  }
}
