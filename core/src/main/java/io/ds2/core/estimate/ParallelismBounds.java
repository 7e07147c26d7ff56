package io.ds2.core.estimate;

import io.ds2.core.graph.Vertex;
import io.ds2.core.options.Ds2Options;
import java.util.List;
import java.util.Locale;

/** Rounds a fractional instance count up and applies min/max parallelism, naming any limit. */
public final class ParallelismBounds {
  // ceil() of a value a rounding error above an integer must not add an instance.
  private static final double ROUNDING_SLACK = 1e-9;

  private ParallelismBounds() {}

  /**
   * @param required fractional instances needed; {@code Double.POSITIVE_INFINITY} when no finite
   *     parallelism suffices (the caller says why)
   * @param reasons receives a reason for every bound that changed the result
   */
  public static int apply(Vertex v, double required, Ds2Options options, List<Reason> reasons) {
    int p = (int) Math.min(Integer.MAX_VALUE, Math.ceil(required - ROUNDING_SLACK));
    if (p < options.minParallelism()) {
      if (required > 0 || options.minParallelism() > 1) {
        reasons.add(
            new Reason(
                ReasonCode.RAISED_TO_MIN_PARALLELISM,
                "needs "
                    + String.format(Locale.ROOT, "%.2f", required)
                    + " instances; raised to min-parallelism "
                    + options.minParallelism()));
      }
      p = options.minParallelism();
    }
    // Only the tighter of the two upper limits binds, so only it is named.
    int optionMax = options.maxParallelism().orElse(Integer.MAX_VALUE);
    int max = Math.min(optionMax, v.maxParallelism());
    if (p > max) {
      String needs = p == Integer.MAX_VALUE ? "needs more than any parallelism" : "needs " + p;
      reasons.add(
          v.maxParallelism() <= optionMax
              ? new Reason(
                  ReasonCode.LIMITED_BY_VERTEX_MAX_PARALLELISM,
                  needs
                      + "; limited to the vertex's max parallelism "
                      + max
                      + ": demand not sustainable")
              : new Reason(
                  ReasonCode.LIMITED_BY_MAX_PARALLELISM_OPTION,
                  needs + "; limited to max-parallelism " + max + ": demand not sustainable"));
      p = max;
    }
    return p;
  }
}
