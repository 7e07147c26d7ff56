package io.ds2.controller.k8s;

import io.ds2.controller.loop.ControlLoop;
import io.ds2.controller.loop.LoopListener;
import io.ds2.controller.recording.LiveRecording;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.FlinkRestException;
import io.ds2.flink.JobLocator;
import io.ds2.flink.JobSampler;
import io.ds2.flink.RestAccess;
import io.ds2.flink.WindowCollector;
import io.ds2.model.policy.ScalingPolicy;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The control loop of one Flink resource, on its own thread until stopped. */
final class ResourceLoop implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ResourceLoop.class);
  private static final Duration POLL = Duration.ofMillis(500);
  private final KubernetesClient client;
  private final ResourceDefinitionContext kind;
  private final String namespace;
  private final String name;
  private final JobSettings settings;
  private final ControlLoop.Mode mode;
  private final EventRecorder events;
  private final OperatorMetrics metrics;
  private final Optional<Path> recordDir;
  private final RestAccess access;
  private volatile boolean stopped;
  private Thread thread;

  ResourceLoop(
      KubernetesClient client,
      ResourceDefinitionContext kind,
      GenericKubernetesResource r,
      JobSettings settings,
      ControlLoop.Mode mode,
      EventRecorder events,
      OperatorMetrics metrics,
      Optional<Path> recordDir,
      RestAccess access) {
    this.client = client;
    this.access = access;
    this.kind = kind;
    this.namespace = r.getMetadata().getNamespace();
    this.name = r.getMetadata().getName();
    this.settings = settings;
    this.mode = mode;
    this.events = events;
    this.metrics = metrics;
    this.recordDir = recordDir;
  }

  JobSettings settings() {
    return settings;
  }

  ControlLoop.Mode mode() {
    return mode;
  }

  void start() {
    thread = new Thread(this, "ds2-" + namespace + "-" + name);
    thread.setDaemon(true);
    thread.start();
  }

  void stop() {
    stopped = true;
    if (thread != null) {
      thread.interrupt();
    }
  }

  @Override
  public void run() {
    var resource = client.genericKubernetesResources(kind).inNamespace(namespace).withName(name);
    LoopListener listener =
        LoopListener.all(
            new EventingListener(resource, events), metrics.listenerFor(namespace, name));
    FlinkRestClient rest = null;
    while (!stopped) {
      try {
        if (rest == null) { // certificate files are read here: a bad one is reported, then retried
          rest = new FlinkRestClient(settings.restUrl(), Duration.ofSeconds(10), access);
        }
        GenericKubernetesResource r = resource.get();
        if (r == null) {
          return;
        }
        Optional<String> jobId = FlinkKinds.string(r, "status", "jobStatus", "jobId");
        String jid = new JobLocator(rest).locate(jobId).jid();
        JobSampler sampler = new JobSampler(rest, jid, Clock.systemUTC());
        OverridesActuator actuator =
            new OverridesActuator(
                client,
                kind,
                namespace,
                name,
                sampler,
                Clock.systemUTC(),
                WindowCollector.Sleeper.SYSTEM,
                POLL);
        ScalingPolicy policy = new ScalingPolicy(settings.options(), Clock.systemUTC());
        PolicyStateAnnotation.read(r.getMetadata().getAnnotations()).ifPresent(policy::restore);
        // A rescale a previous instance requested is awaited, never requested twice.
        actuator
            .awaitInFlight(settings.options().rescaleTimeout())
            .ifPresent(o -> policy.rescaleApplied());
        LoopListener withState =
            LoopListener.all(listener, new PolicyStatePersister(resource, policy));
        try (LiveRecording recording = startRecording(rest, sampler)) {
          ControlLoop loop =
              new ControlLoop(
                  recording == null ? sampler : recording.source(),
                  policy,
                  actuator,
                  mode,
                  io.ds2.model.estimate.DemandScenario.measured(),
                  recording == null ? withState : LoopListener.all(withState, recording.listener()),
                  WindowCollector.Sleeper.SYSTEM);
          restoreKeyedHistory(r, loop);
          loop.run(() -> !stopped, Long.MAX_VALUE);
        }
      } catch (InterruptedException e) {
        return;
      } catch (FlinkRestException e) {
        listener.problem(e.getMessage());
        pause();
      } catch (IllegalArgumentException e) {
        listener.problem("cannot set up the Flink REST client: " + e.getMessage());
        pause();
      } catch (java.io.IOException e) {
        LOG.warn("recording of {}/{} failed; restarting the loop", namespace, name, e);
        pause();
      } catch (RuntimeException e) {
        LOG.warn("loop of {}/{} failed; restarting it", namespace, name, e);
        pause();
      }
    }
  }

  /** A recording of this loop if the operator records, else null. */
  /**
   * Continues from the keyed history a previous instance saved; a malformed one is reported
   * (Warning event) and ignored: keyed vertices then start from the next window, as after p = 1.
   */
  private void restoreKeyedHistory(GenericKubernetesResource r, ControlLoop loop) {
    KeyedHistoryAnnotation.read(r.getMetadata().getAnnotations())
        .ifPresent(
            read -> {
              if (read instanceof KeyedHistoryAnnotation.Restored restored) {
                loop.restoreKeyedHistory(restored.history());
              } else if (read instanceof KeyedHistoryAnnotation.Unreadable bad) {
                events.warning(r, EventRecorder.Reason.InvalidAnnotation, bad.why());
              }
            });
  }

  private LiveRecording startRecording(FlinkRestClient rest, JobSampler sampler) {
    if (recordDir.isEmpty()) {
      return null;
    }
    String stamp =
        DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC)
            .format(Instant.now());
    Path file = recordDir.get().resolve(namespace + "_" + name + "_" + stamp + ".jsonl.gz");
    return LiveRecording.start(
        file,
        rest,
        sampler,
        sampler.topology(),
        settings.options().sampleInterval(),
        settings.options().asMap(),
        Clock.systemUTC());
  }

  private void pause() {
    try {
      Thread.sleep(settings.options().window().toMillis());
    } catch (InterruptedException e) {
      stopped = true;
    }
  }
}
