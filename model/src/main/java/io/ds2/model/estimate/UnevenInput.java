package io.ds2.model.estimate;

import io.ds2.model.window.SubtaskSample;
import io.ds2.model.window.SubtaskSample.Counter;
import io.ds2.model.window.VertexObservation;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Key skew on a keyed input, found in the per-subtask counters: DS2 (and this model) sizes a vertex
 * from its aggregate rates, as if keys spread evenly. When one subtask runs flat out while the
 * others have room, more instances help less than the equation says. This is reported, not acted
 * on: the hot key's share after a rescale depends on which keys land together, so sizing from it
 * could overshoot by far (a wrong rescale is worse than none).
 */
final class UnevenInput {
  private static final double BINDING_BUSY_RATIO = 0.95;
  // The others at most this fraction of the binding subtask's busy ratio: clearly uneven.
  private static final double UNEVEN_BUSY_FACTOR = 0.9;

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
    double busySum = 0;
    SubtaskSample hottest = null;
    for (SubtaskSample s : subtasks) {
      total += s.get(Counter.RECORDS_IN).orElse(0);
      busySum += busyRatio(s);
      if (hottest == null || busyRatio(s) > busyRatio(hottest)) {
        hottest = s;
      }
    }
    double busy = busyRatio(hottest);
    double othersBusy = (busySum - busy) / (p - 1);
    // One subtask flat out while the others have room: its load is uneven.
    if (total <= 0 || busy < BINDING_BUSY_RATIO || othersBusy > UNEVEN_BUSY_FACTOR * busy) {
      return Optional.empty();
    }
    double share = hottest.get(Counter.RECORDS_IN).orElse(0) / total;
    // If one hot key made the difference: share = h + (1 - h) / p. The share is a lower bound
    // (records the hot subtask could not take yet wait in network buffers), so is the need.
    double hot = Math.max(0, (p * share - 1) / (p - 1));
    String need;
    if (hot == 0) {
      need = "it gets no more than its share, so a slow machine is as likely as a hot key";
    } else if (load * hot >= 1) {
      need = "more than one instance's capacity is on one key: no parallelism suffices";
    } else {
      int q = Math.max(1, (int) Math.ceil(load));
      while (load * (hot + (1 - hot) / q) > 1) {
        q++;
      }
      need = "if a single hot key causes it, at least " + q + " instances are needed";
    }
    return Optional.of(
        new Reason(
            ReasonCode.UNEVEN_INPUT,
            String.format(
                Locale.ROOT,
                "subtask %d is busy %.0f %% while the others average %.0f %%; it gets %.1f %% of"
                    + " the input (even share %.1f %%): the load is uneven, and this estimate"
                    + " assumes even keys; %s",
                hottest.subtask(),
                100 * busy,
                100 * othersBusy,
                100 * share,
                100.0 / p,
                need)));
  }

  private static double busyRatio(SubtaskSample s) {
    double busy = s.get(Counter.BUSY_TIME_MS).orElse(0);
    double time =
        busy
            + s.get(Counter.IDLE_TIME_MS).orElse(0)
            + s.get(Counter.BACK_PRESSURED_TIME_MS).orElse(0);
    return time <= 0 ? 0 : busy / time;
  }
}
