package io.ds2.operator;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.forecast.DemandHistory;
import io.ds2.core.keyed.KeyedHistory;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.scaler.SavedState;
import io.ds2.core.scaler.StateStore;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What ds2 keeps on one resource's annotations: the job's saved state (policy state, keyed history,
 * demand history, rescale times) as its {@link StateStore}, and the last decision. Values are set
 * during a step and written by {@link #flush} in one merge patch, only those that changed, so a
 * steady job costs no API call and a decision at most one.
 */
final class ResourceAnnotations implements StateStore {
  private final Supplier<GenericKubernetesResource> current;
  private final Resource<GenericKubernetesResource> resource;
  private final EventRecorder events;
  private final Map<String, String> written = new LinkedHashMap<>();
  private final Map<String, String> pending = new LinkedHashMap<>();
  // Each source's newest bucket in the demand history last encoded.
  private Map<String, Long> demandWritten = Map.of();

  ResourceAnnotations(
      Supplier<GenericKubernetesResource> current,
      Resource<GenericKubernetesResource> resource,
      EventRecorder events) {
    this.current = current;
    this.resource = resource;
    this.events = events;
  }

  /**
   * What an earlier instance saved. A malformed part is reported (an InvalidAnnotation Warning
   * saying what ds2 does without it) and ignored whole.
   */
  @Override
  public SavedState load() {
    GenericKubernetesResource r = current.get();
    if (r == null) {
      return SavedState.EMPTY;
    }
    Map<String, String> annotations = r.getMetadata().getAnnotations();
    Consumer<String> warn = why -> events.warning(r, EventRecorder.Reason.InvalidAnnotation, why);
    KeyedHistory keyed =
        StateAnnotation.restore(
            KeyedHistoryAnnotation.read(annotations), KeyedHistory.empty(), warn);
    DemandHistory.Snapshot demand =
        StateAnnotation.restore(
            DemandHistoryAnnotation.read(annotations), DemandHistory.Snapshot.EMPTY, warn);
    List<Duration> rescales =
        StateAnnotation.restore(RescaleTimesAnnotation.read(annotations), List.of(), warn);
    if (annotations != null) {
      for (String key :
          new String[] {
            PolicyStateAnnotation.KEY,
            KeyedHistoryAnnotation.KEY,
            DemandHistoryAnnotation.KEY,
            RescaleTimesAnnotation.KEY
          }) {
        if (annotations.containsKey(key)) {
          written.put(key, annotations.get(key));
        }
      }
    }
    Optional<ScalingPolicy.State> policy =
        Optional.ofNullable(
            StateAnnotation.restore(PolicyStateAnnotation.read(annotations), null, warn));
    return new SavedState(policy, keyed, demand, rescales);
  }

  @Override
  public void save(SavedState state) {
    state.policy().ifPresent(p -> set(PolicyStateAnnotation.KEY, PolicyStateAnnotation.write(p)));
    set(KeyedHistoryAnnotation.KEY, KeyedHistoryAnnotation.write(state.keyed()));
    saveDemand(state.demand());
    if (!state.rescales().isEmpty()) {
      set(RescaleTimesAnnotation.KEY, RescaleTimesAnnotation.write(state.rescales()));
    }
  }

  /**
   * The demand history, encoded only when a source's newest complete bucket moved (once a bucket,
   * not once a window).
   */
  private void saveDemand(DemandHistory.Snapshot demand) {
    if (demand.sources().isEmpty()) {
      return;
    }
    Map<String, Long> newest = new LinkedHashMap<>();
    demand.sources().forEach((source, saved) -> newest.put(source, saved.newest()));
    if (newest.equals(demandWritten)) {
      return;
    }
    demandWritten = newest;
    int day = (int) Math.max(1, Duration.ofDays(1).dividedBy(demand.bucket()));
    Optional<String> text = DemandHistoryAnnotation.write(demand, day, 3 * day);
    if (text.isPresent()) {
      set(DemandHistoryAnnotation.KEY, text.get());
      return;
    }
    GenericKubernetesResource r = current.get();
    if (r != null) {
      events.warning(
          r,
          EventRecorder.Reason.DemandHistoryNotKept,
          "the demand history of "
              + demand.sources().size()
              + " sources does not fit annotation "
              + DemandHistoryAnnotation.KEY
              + " even cut to three days: the forecast keeps it in memory only, and a restarted"
              + " controller learns it anew");
    }
  }

  /** Sets an annotation at the next {@link #flush}, if its value changed. */
  void set(String key, String value) {
    if (value.equals(written.get(key))) {
      pending.remove(key);
    } else {
      pending.put(key, value);
    }
  }

  /** Writes what changed since the last flush in one merge patch; kept for the next on failure. */
  void flush() {
    if (pending.isEmpty()) {
      return;
    }
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    ObjectNode annotations = patch.putObject("metadata").putObject("annotations");
    pending.forEach(annotations::put);
    try {
      resource.patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
      written.putAll(pending);
      pending.clear();
    } catch (KubernetesClientException e) {
      // Written with the next step's changes.
    }
  }
}
