package io.ds2.operator;

import io.ds2.core.estimate.DemandScenario;
import io.ds2.core.policy.ScalingPolicy;
import io.ds2.core.scaler.JobScaler;
import io.ds2.core.scaler.Mode;
import io.ds2.core.scaler.ScalerAction;
import io.ds2.core.scaler.ScalerEvent;
import io.ds2.loop.EventSink;
import io.ds2.loop.JobDriver;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One managed Flink resource on the operator's shared scheduler: each tick carries out one action
 * of the job's scaler core (a poll, a rescale request or observation) and schedules the next when
 * the core says, so no thread waits on a job. Ticks of one job never overlap, and {@link #stop}
 * returns only once a tick in progress has finished: two loops never write to one resource.
 */
final class ManagedJob {
  private static final Logger LOG = LoggerFactory.getLogger(ManagedJob.class);

  /** What every managed job shares. */
  record Shared(
      ScheduledExecutorService scheduler,
      EventRecorder events,
      OperatorMetrics metrics,
      JobEnds ends,
      Clock clock) {}

  private final Shared shared;
  private final GenericKubernetesResource first;
  private final String namespace;
  private final String name;
  private final JobSettings settings;
  private final Mode mode;
  private final Supplier<GenericKubernetesResource> current;
  private final Resource<GenericKubernetesResource> resource;
  private final ResourceAnnotations annotations;
  private final EventSink listener;
  private final Object lock = new Object();
  private volatile boolean stopped;
  private volatile ScheduledFuture<?> scheduled;
  // Set up on the first tick and after a failure; guarded by lock.
  private JobDriver driver;
  private Closeable ends;
  private ScalerAction next;

  /**
   * @param current the resource from the informer cache (null once deleted)
   * @param resource where patches go
   */
  ManagedJob(
      Shared shared,
      GenericKubernetesResource r,
      JobSettings settings,
      Mode mode,
      Supplier<GenericKubernetesResource> current,
      Resource<GenericKubernetesResource> resource) {
    this.shared = shared;
    this.first = r;
    this.namespace = r.getMetadata().getNamespace();
    this.name = r.getMetadata().getName();
    this.settings = settings;
    this.mode = mode;
    this.current = current;
    this.resource = resource;
    this.annotations = new ResourceAnnotations(current, resource, shared.events());
    this.listener =
        EventSink.all(
            new EventingListener(current, annotations, shared.events()),
            shared.metrics().listenerFor(namespace, name));
  }

  JobSettings settings() {
    return settings;
  }

  Mode mode() {
    return mode;
  }

  boolean stopped() {
    return stopped;
  }

  /** Schedules the first step {@code delay} from now (see {@link StartSpread}). */
  void start(Duration delay) {
    schedule(shared.clock().instant().plus(delay));
  }

  /** Stops the schedule; waits for a tick in progress, so nothing of this loop writes after. */
  void stop() {
    stopped = true;
    ScheduledFuture<?> f = scheduled;
    if (f != null) {
      f.cancel(false);
    }
    synchronized (lock) {
      tearDown();
    }
  }

  private void schedule(Instant at) {
    if (stopped) {
      return;
    }
    long delay = Math.max(0, Duration.between(shared.clock().instant(), at).toMillis());
    scheduled = shared.scheduler().schedule(this::tick, delay, TimeUnit.MILLISECONDS);
  }

  private void tick() {
    synchronized (lock) {
      if (stopped) {
        return;
      }
      Instant at;
      try {
        at = advance();
      } catch (WriteFence.NotLeading e) {
        // Leadership was lost while this step ran; the loop is being stopped.
        LOG.info("{}/{}: {}", namespace, name, e.getMessage());
        at = shared.clock().instant().plus(settings.options().sampleInterval());
      } catch (RuntimeException | Error e) {
        // Whatever a tick throws (an Error of a library included), this job's loop goes on: a
        // loop that ended here would leave the job unmanaged without a word.
        LOG.warn("loop of {}/{} failed; starting it over", namespace, name, e);
        at = startOverLater(null);
      }
      try {
        annotations.flush();
      } catch (WriteFence.NotLeading e) {
        LOG.info("{}/{}: annotations not written: {}", namespace, name, e.getMessage());
      } catch (RuntimeException e) {
        LOG.warn("annotations of {}/{} not written", namespace, name, e);
      }
      schedule(at);
    }
  }

  /** Does the next action (finding the job and wiring its loop first); when to tick again. */
  private Instant advance() {
    if (driver == null) {
      JobEnds.Opening opening = shared.ends().open(first, settings, current, resource);
      if (!(opening instanceof JobEnds.Opened opened)) {
        return notOpened(opening);
      }
      next = setUp(opened);
    }
    next = driver.advance(next);
    if (next instanceof ScalerAction.Stop stop) {
      return startOverLater(stop.why());
    }
    return next.at();
  }

  /** When to try again after the job's ends could not be opened, and what to say. */
  private Instant notOpened(JobEnds.Opening opening) {
    if (opening instanceof JobEnds.NotRunning n) {
      // Looked at again every poll interval (a read of the informer cache), without a Warning.
      LOG.debug("{}/{} not running: {}", namespace, name, n.why());
      tearDown();
      return shared.clock().instant().plus(settings.options().sampleInterval());
    }
    if (opening instanceof JobEnds.Refused refused) {
      Duration wait = settings.options().window();
      GenericKubernetesResource r = current.get();
      if (r != null) {
        shared
            .events()
            .warning(
                r,
                EventRecorder.Reason.FlinkAccessRefused,
                refused.why() + "; retrying in " + wait.toSeconds() + " s");
      }
      tearDown();
      return shared.clock().instant().plus(wait);
    }
    return startOverLater(((JobEnds.Unavailable) opening).why());
  }

  /** Wires the loop on opened ends; the first action. */
  private ScalerAction setUp(JobEnds.Opened opened) {
    ends = opened.close();
    JobScaler scaler =
        new JobScaler(
            new ScalingPolicy(settings.options()),
            DemandScenario.measured().withSourceSplits(settings.sourceSplits()),
            mode,
            opened.actuator().pollInterval());
    driver =
        new JobDriver(
            opened.source(),
            scaler,
            opened.actuator(),
            annotations,
            opened.listener().map(l -> EventSink.all(listener, l)).orElse(listener),
            shared.clock());
    return driver.start();
  }

  /** Reports a failure (if {@code why}) and starts the loop over after a window. */
  private Instant startOverLater(String why) {
    Duration wait = settings.options().window();
    if (why != null) {
      // No topology yet: the loop failed before (or while) reading it.
      listener.on(
          null, new ScalerEvent.Problem(ScalerEvent.Problem.Kind.SAMPLING_FAILED, why, wait));
    }
    tearDown();
    return shared.clock().instant().plus(wait);
  }

  private void tearDown() {
    driver = null;
    next = null;
    if (ends != null) {
      try {
        ends.close();
      } catch (IOException e) {
        LOG.warn("recording of {}/{} not closed cleanly", namespace, name, e);
      }
      ends = null;
    }
  }
}
