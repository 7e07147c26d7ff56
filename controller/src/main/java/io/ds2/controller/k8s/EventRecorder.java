package io.ds2.controller.k8s;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes events on a Flink resource with ds2's own reasons, de-duplicated: the same reason and
 * message on the same resource is emitted at most once per interval. What de-duplication remembers
 * is bounded: entries older than the interval are dropped, and a deleted resource's at once.
 */
public final class EventRecorder {
  public static final String COMPONENT = "ds2";
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);

  /** ds2's event reasons (none of them is used by the Flink operator). */
  public enum Reason {
    ScalingRecommended,
    ScalingApplied,
    ScalingSkipped,
    ScalingLimited,
    /**
     * A keyed vertex (or a source, by its splits) sized above DS2's even bound so its busiest
     * subtask keeps up.
     */
    UnevenInput,
    /** A key group (or a source's split) needs more than one instance: no parallelism fixes it. */
    HotKeyGroup,
    /** The job fell behind with no subtask saturated: sized for a lower utilization from now. */
    CapacityShortfall,
    MetricsNotReady,
    ConflictingAutoscaler,
    InvalidAnnotation,
    /** The namespace's Flink credentials cannot be used for the job's URL (see the message). */
    FlinkAccessRefused,
    OverridesReverted
  }

  private final KubernetesClient client;
  private final Clock clock;
  private final Duration dedupe;
  private final Map<String, Instant> lastSent = new ConcurrentHashMap<>();
  private volatile Instant lastPruned = Instant.MIN;

  public EventRecorder(KubernetesClient client, Clock clock, Duration dedupe) {
    this.client = client;
    this.clock = clock;
    this.dedupe = dedupe;
  }

  public void normal(GenericKubernetesResource on, Reason reason, String message) {
    emit(on, "Normal", reason, message);
  }

  public void warning(GenericKubernetesResource on, Reason reason, String message) {
    emit(on, "Warning", reason, message);
  }

  /** Forgets what was sent about a resource that is gone. */
  public void forget(String uid) {
    lastSent.keySet().removeIf(k -> k.startsWith(uid + "|"));
  }

  /** How many (resource, reason, message) entries de-duplication remembers now. */
  public int remembered() {
    return lastSent.size();
  }

  /** Drops entries that no longer suppress anything, at most once a minute. */
  private void prune(Instant now) {
    if (now.isBefore(lastPruned.plus(PRUNE_EVERY))) {
      return;
    }
    lastPruned = now;
    lastSent.values().removeIf(sent -> !now.isBefore(sent.plus(dedupe)));
  }

  private static final Duration PRUNE_EVERY = Duration.ofMinutes(1);

  private void emit(GenericKubernetesResource on, String type, Reason reason, String message) {
    String key = on.getMetadata().getUid() + "|" + reason + "|" + message;
    Instant now = clock.instant();
    prune(now);
    Instant last = lastSent.get(key);
    if (last != null && now.isBefore(last.plus(dedupe))) {
      return;
    }
    lastSent.put(key, now);
    String text = message.length() > 1000 ? message.substring(0, 997) + "..." : message;
    Event e =
        new EventBuilder()
            .withNewMetadata()
            .withName(
                on.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 8))
            .withNamespace(on.getMetadata().getNamespace())
            .endMetadata()
            .withNewInvolvedObject()
            .withApiVersion(on.getApiVersion())
            .withKind(on.getKind())
            .withName(on.getMetadata().getName())
            .withNamespace(on.getMetadata().getNamespace())
            .withUid(on.getMetadata().getUid())
            .endInvolvedObject()
            .withType(type)
            .withReason(reason.name())
            .withMessage(text)
            .withNewSource()
            .withComponent(COMPONENT)
            .endSource()
            .withReportingComponent(COMPONENT)
            .withFirstTimestamp(now.toString())
            .withLastTimestamp(now.toString())
            .withCount(1)
            .build();
    try {
      client.v1().events().inNamespace(on.getMetadata().getNamespace()).resource(e).create();
    } catch (KubernetesClientException ex) {
      // An event that cannot be written must not stop the loop; the log keeps it.
      LOG.warn(
          "cannot write event {} on {}: {}", reason, on.getMetadata().getName(), ex.getMessage());
    }
    LOG.info(
        "{} {} {}/{}: {}",
        type,
        reason,
        on.getMetadata().getNamespace(),
        on.getMetadata().getName(),
        text);
  }
}
