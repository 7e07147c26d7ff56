package io.ds2.controller.k8s;

import io.ds2.controller.k8s.EventRecorder.Reason;
import io.ds2.controller.loop.ControlLoop;
import io.ds2.model.options.Ds2Options;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches FlinkDeployments and FlinkSessionJobs and runs one control loop per opted-in resource,
 * restarting it when its annotations change and stopping it when it opts out or is deleted. The
 * built-in autoscaler on the same resource makes ds2 advise only.
 */
public final class Ds2Operator implements AutoCloseable {
  private final KubernetesClient client;
  private final List<String> namespaces;
  private final Ds2Options defaults;
  private final EventRecorder events;
  private final OperatorMetrics metrics;
  private final Map<String, ResourceLoop> loops = new ConcurrentHashMap<>();
  private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();
  private java.util.Optional<java.nio.file.Path> recordDir = java.util.Optional.empty();
  private io.ds2.flink.RestAccess restAccess = io.ds2.flink.RestAccess.none();

  /**
   * @param namespaces the namespaces to watch; empty means all
   */
  public Ds2Operator(
      KubernetesClient client,
      List<String> namespaces,
      Ds2Options defaults,
      EventRecorder events,
      OperatorMetrics metrics) {
    this.client = client;
    this.namespaces = List.copyOf(namespaces);
    this.defaults = defaults;
    this.events = events;
    this.metrics = metrics;
  }

  /**
   * Records every managed job's polls, decisions and rescales into {@code dir}, one file per loop
   * start ({@code namespace_name_time.jsonl.gz}), for {@code ds2 whatif}. Call before {@link
   * #start}.
   */
  /** TLS and credentials for every managed job's Flink REST endpoint. */
  public Ds2Operator withRestAccess(io.ds2.flink.RestAccess access) {
    this.restAccess = access;
    return this;
  }

  public Ds2Operator recordingTo(java.nio.file.Path dir) {
    this.recordDir = java.util.Optional.of(dir);
    return this;
  }

  public void start() {
    for (ResourceDefinitionContext kind : List.of(FlinkKinds.DEPLOYMENT, FlinkKinds.SESSION_JOB)) {
      if (namespaces.isEmpty()) {
        informers.add(
            client.genericKubernetesResources(kind).inAnyNamespace().inform(handler(kind)));
      } else {
        for (String ns : namespaces) {
          informers.add(
              client.genericKubernetesResources(kind).inNamespace(ns).inform(handler(kind)));
        }
      }
    }
  }

  /** True once every informer has listed its resources. */
  public boolean synced() {
    return !informers.isEmpty() && informers.stream().allMatch(SharedIndexInformer::hasSynced);
  }

  /** How many resources have a running loop. */
  public int managed() {
    return loops.size();
  }

  private ResourceEventHandler<GenericKubernetesResource> handler(ResourceDefinitionContext kind) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource r) {
        reconcile(kind, r);
      }

      @Override
      public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource r) {
        reconcile(kind, r);
      }

      @Override
      public void onDelete(GenericKubernetesResource r, boolean unknownFinalState) {
        stop(r.getMetadata().getUid());
      }
    };
  }

  private synchronized void reconcile(ResourceDefinitionContext kind, GenericKubernetesResource r) {
    String uid = r.getMetadata().getUid();
    Optional<JobSettings> settings;
    try {
      settings = JobSettings.of(r, defaults);
    } catch (JobSettings.Invalid e) {
      events.warning(
          r, Reason.InvalidAnnotation, e.getMessage() + "; ds2 leaves this job untouched");
      stop(uid);
      return;
    }
    if (settings.isEmpty()) {
      stop(uid);
      return;
    }
    ControlLoop.Mode mode =
        settings.get().mode() == JobSettings.Mode.ENABLED
            ? ControlLoop.Mode.ACT
            : ControlLoop.Mode.ADVISOR;
    if (mode == ControlLoop.Mode.ACT && FlinkKinds.builtInAutoscalerEnabled(r)) {
      events.warning(
          r,
          Reason.ConflictingAutoscaler,
          "job.autoscaler.enabled is true on this resource: the Flink operator's autoscaler owns its"
              + " parallelism overrides, so ds2 only advises");
      mode = ControlLoop.Mode.ADVISOR;
    }
    ResourceLoop running = loops.get(uid);
    if (running != null && running.settings().equals(settings.get()) && running.mode() == mode) {
      return;
    }
    stop(uid);
    ResourceLoop loop =
        new ResourceLoop(
            client, kind, r, settings.get(), mode, events, metrics, recordDir, restAccess);
    loops.put(uid, loop);
    loop.start();
  }

  private void stop(String uid) {
    ResourceLoop loop = loops.remove(uid);
    if (loop != null) {
      loop.stop();
    }
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
    loops.values().forEach(ResourceLoop::stop);
    loops.clear();
  }
}
