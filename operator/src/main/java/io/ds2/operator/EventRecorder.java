package io.ds2.operator;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes events on a Flink resource with ds2's own reasons, counted as Kubernetes does: one
 * event per resource, type and reason within the interval, whose count, last timestamp and message
 * follow each occurrence (a message that changes, say with a time in it, does not make a new event;
 * a second rescale within minutes shows as count 2). A repeat of the same message is written at
 * most once a minute, its count carried by the next write. What is remembered is bounded: entries
 * older than the interval are dropped, and a deleted resource's at once.
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
    /**
     * A source that never waits for records has a lag that cannot show what arrives (its Kafka
     * consumer holds fetched records the lag does not count): sized by a bounded step above what it
     * read.
     */
    SourceLagHidden,
    MetricsNotReady,
    ConflictingAutoscaler,
    InvalidAnnotation,
    /** The namespace's Flink credentials cannot be used for the job's URL (see the message). */
    FlinkAccessRefused,
    OverridesReverted,
    /** The job restarted repeatedly after a rescale: the parallelism from before is back. */
    RescaleRolledBack,
    /** The demand forecast rises above the measured demand and would change (or changes) a size. */
    ForecastAhead,
    /**
     * The sources' demand history does not fit its annotation even cut to three days: the forecast
     * keeps it in memory only, and a restarted controller learns it anew.
     */
    DemandHistoryNotKept
  }

  private final KubernetesClient client;
  private final Clock clock;
  private final Duration dedupe;

  /** The event written for one resource, type and reason, and what it has counted. */
  private static final class Counted {
    final String name;
    Instant written;
    String message;
    int count;

    Counted(String name, Instant written, String message) {
      this.name = name;
      this.written = written;
      this.message = message;
      this.count = 1;
    }
  }

  /** How often a repeat of the same message is written at most; its count goes with the next. */
  private static final Duration REPEAT_WRITE = Duration.ofMinutes(1);

  private final Map<String, Counted> lastSent = new ConcurrentHashMap<>();
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

  /** How many (resource, type, reason) entries de-duplication remembers now. */
  public int remembered() {
    return lastSent.size();
  }

  /** Drops entries that no longer suppress anything, at most once a minute. */
  private void prune(Instant now) {
    if (now.isBefore(lastPruned.plus(PRUNE_EVERY))) {
      return;
    }
    lastPruned = now;
    lastSent.values().removeIf(sent -> !now.isBefore(sent.written.plus(dedupe)));
  }

  private static final Duration PRUNE_EVERY = Duration.ofMinutes(1);

  private void emit(GenericKubernetesResource on, String type, Reason reason, String message) {
    String key = on.getMetadata().getUid() + "|" + type + "|" + reason;
    Instant now = clock.instant();
    prune(now);
    String text = message.length() > 1000 ? message.substring(0, 997) + "..." : message;
    LOG.info(
        "{} {} {}/{}: {}",
        type,
        reason,
        on.getMetadata().getNamespace(),
        on.getMetadata().getName(),
        text);
    synchronized (lastSent) {
      Counted c = lastSent.get(key);
      if (c != null && now.isBefore(c.written.plus(dedupe))) {
        c.count++;
        boolean same = c.message.equals(text);
        if (same && now.isBefore(c.written.plus(REPEAT_WRITE))) {
          return; // counted; written with the next occurrence
        }
        c.message = text;
        if (recount(on, c, now)) {
          return;
        }
      }
      String name = on.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 8);
      if (create(on, type, reason, text, name, now)) {
        lastSent.put(key, new Counted(name, now, text));
      }
    }
  }

  /** Updates the event's count, message and last timestamp; false if it is gone (expired). */
  private boolean recount(GenericKubernetesResource on, Counted c, Instant now) {
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    patch.put("count", c.count);
    patch.put("message", c.message);
    patch.put("lastTimestamp", now.toString());
    try {
      client
          .v1()
          .events()
          .inNamespace(on.getMetadata().getNamespace())
          .withName(c.name)
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
      c.written = now;
      return true;
    } catch (KubernetesClientException ex) {
      if (ex.getCode() == 404) {
        return false; // the API server expired it: a new one starts the count again
      }
      LOG.warn(
          "cannot update event {} on {}: {}", c.name, on.getMetadata().getName(), ex.getMessage());
      return true; // counted; the next occurrence tries again
    }
  }

  private boolean create(
      GenericKubernetesResource on,
      String type,
      Reason reason,
      String text,
      String name,
      Instant now) {
    Event e =
        new EventBuilder()
            .withNewMetadata()
            .withName(name)
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
      return true;
    } catch (KubernetesClientException ex) {
      // An event that cannot be written must not stop the loop; the log keeps it.
      LOG.warn(
          "cannot write event {} on {}: {}", reason, on.getMetadata().getName(), ex.getMessage());
      return false;
    }
  }
}
