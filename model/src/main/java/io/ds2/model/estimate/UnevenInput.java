package io.ds2.model.estimate;

import io.ds2.model.window.SubtaskSample;
import io.ds2.model.window.SubtaskSample.Counter;
import io.ds2.model.window.VertexObservation;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Key skew on a keyed input, found in the per-subtask counts: DS2 (and this model) sizes a vertex
 * from its aggregate rates, as if keys spread evenly. When one subtask gets clearly more than its
 * share and is the one running flat out, more instances help less than the equation says. This is
 * reported, not acted on: the hot key's share after a rescale depends on which keys land together,
 * so sizing from it could overshoot by far (a wrong rescale is worse than none).
 */
final class UnevenInput {
  // A subtask this much above its even share is skew, not noise (key groups alone differ by ~2 %).
  private static final double SKEW_FACTOR = 1.2;
  private static final double BINDING_BUSY_RATIO = 0.95;

  private UnevenInput() {}

  /**
   * @param load instances the vertex needs with even keys (DS2's unrounded estimate)
   */
  static Optional<Reason> check(VertexObservation obs, double load) {
    List<SubtaskSample> subtasks = obs.subtaskDeltas();
    int p = subtasks.size();
    if (p < 2) {
      return Optional.empty();
    }
    double total = 0;
    SubtaskSample hottest = null;
    for (SubtaskSample s : subtasks) {
      double in = s.get(Counter.RECORDS_IN).orElse(0);
      total += in;
      if (hottest == null || in > hottest.get(Counter.RECORDS_IN).orElse(0)) {
        hottest = s;
      }
    }
    if (total <= 0) {
      return Optional.empty();
    }
    double share = hottest.get(Counter.RECORDS_IN).orElse(0) / total;
    double busy = hottest.get(Counter.BUSY_TIME_MS).orElse(0);
    double time =
        busy
            + hottest.get(Counter.IDLE_TIME_MS).orElse(0)
            + hottest.get(Counter.BACK_PRESSURED_TIME_MS).orElse(0);
    if (share < SKEW_FACTOR / p || time <= 0 || busy / time < BINDING_BUSY_RATIO) {
      return Optional.empty();
    }
    // If one hot key made the difference: share = h + (1 - h) / p.
    double hot = (p * share - 1) / (p - 1);
    String need;
    if (load * hot >= 1) {
      need = "more than one instance's capacity is on one key: no parallelism suffices";
    } else {
      int q = Math.max(1, (int) Math.ceil(load));
      while (load * (hot + (1 - hot) / q) > 1) {
        q++;
      }
      need = "if a single hot key causes it, about " + q + " instances would keep up";
    }
    return Optional.of(
        new Reason(
            ReasonCode.UNEVEN_INPUT,
            String.format(
                Locale.ROOT,
                "subtask %d gets %.1f %% of the input (even share %.1f %%) and is busy %.0f %%: keys"
                    + " are skewed, and this estimate assumes even keys; %s",
                hottest.subtask(),
                100 * share,
                100.0 / p,
                100 * busy / time,
                need)));
  }
}
