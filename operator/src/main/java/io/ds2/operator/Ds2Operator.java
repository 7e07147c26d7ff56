package io.ds2.operator;

import io.ds2.core.options.Ds2Options;
import io.ds2.core.scaler.Mode;
import io.ds2.operator.EventRecorder.Reason;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Watches FlinkDeployments and FlinkSessionJobs and steps one control loop per opted-in resource on
 * a small shared scheduler (a fixed number of threads, whatever the number of jobs), restarting it
 * when its annotations change and stopping it when it opts out or is deleted. Reads resources from
 * the informers' cache; only patches and events go to the API server. The built-in autoscaler on
 * the same resource makes ds2 advise only.
 */
public final class Ds2Operator implements AutoCloseable {
  /** Scheduler threads unless set: enough to overlap slow REST calls of a few jobs. */
  public static final int DEFAULT_THREADS = 4;

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Ds2Operator.class);
  private final KubernetesClient client;
  private final List<String> namespaces;
  private final Ds2Options defaults;
  private final EventRecorder events;
  private final OperatorMetrics metrics;
  private final Map<String, ManagedJob> jobs = new ConcurrentHashMap<>();
  private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();
  private Optional<RecordingDir> recordDir = Optional.empty();
  private FlinkEndpoints endpoints = FlinkEndpoints.ownServicesOnly();
  private int threads = DEFAULT_THREADS;
  private Clock clock = Clock.systemUTC();
  private JobEnds ends;
  private ScheduledThreadPoolExecutor scheduler;
  private ManagedJob.Shared shared;
  private BooleanSupplier leads;
  private KubernetesClient writes;
  private Instant startedAt;

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
   * Which Flink REST URLs jobs may name besides their own REST Service, and the Secret each
   * namespace keeps its endpoints' credentials in. Call before {@link #start}.
   */
  public Ds2Operator withEndpoints(FlinkEndpoints endpoints) {
    this.endpoints = endpoints;
    return this;
  }

  /**
   * Records every managed job's polls, decisions and rescales for {@code ds2 whatif}, one file per
   * loop start and rotation ({@code namespace_name_time.jsonl.gz}), at most a number per job, best
   * effort. Call before {@link #start}.
   */
  public Ds2Operator recordingTo(RecordingDir dir) {
    this.recordDir = Optional.of(dir);
    return this;
  }

  /** As {@link #recordingTo(RecordingDir)}, with the default limits (tests, benchmarks). */
  public Ds2Operator recordingTo(Path dir) {
    return recordingTo(new RecordingDir(dir, DEFAULT_RECORDING_BYTES, DEFAULT_RECORDINGS_KEPT));
  }

  /** A file is rotated after this many bytes (uncompressed; about a day of a 10-vertex job). */
  public static final long DEFAULT_RECORDING_BYTES = 64L << 20;

  /** Files kept per job: two weeks of daily files. */
  public static final int DEFAULT_RECORDINGS_KEPT = 14;

  /** How many threads step the managed jobs. Call before {@link #start}. */
  public Ds2Operator withThreads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("at least one scheduler thread, not " + threads);
    }
    this.threads = threads;
    return this;
  }

  /** Other ends than Flink's REST API and the overrides (tests). Call before {@link #start}. */
  Ds2Operator withEnds(JobEnds ends) {
    this.ends = ends;
    return this;
  }

  /**
   * Writes to Flink resources only while {@code leads} holds, each sent once ({@link WriteFence}).
   * Call before {@link #start}.
   */
  public Ds2Operator withWriteFence(BooleanSupplier leads) {
    this.leads = leads;
    return this;
  }

  /** The time base of every loop (tests, simulations). Call before {@link #start}. */
  public Ds2Operator withClock(Clock clock) {
    this.clock = clock;
    return this;
  }

  public void start() {
    startedAt = clock.instant();
    writes = leads == null ? client : WriteFence.sentOnce(client, WriteFence.WRITE_TIMEOUT);
    leads = leads == null ? () -> true : leads;
    scheduler = new ScheduledThreadPoolExecutor(threads, daemonThreads());
    scheduler.setRemoveOnCancelPolicy(true); // a stopped job leaves nothing in the queue
    JobEnds jobEnds =
        ends != null
            ? ends
            : new RestEnds(
                new NamespaceCredentials(client, endpoints.credentialsSecret()),
                recordDir,
                clock,
                this::quotas);
    shared = new ManagedJob.Shared(scheduler, events, metrics, jobEnds, clock);
    for (ResourceDefinitionContext kind : List.of(FlinkKinds.DEPLOYMENT, FlinkKinds.SESSION_JOB)) {
      if (namespaces.isEmpty()) {
        informers.add(inform(kind, client.genericKubernetesResources(kind).inAnyNamespace()));
      } else {
        for (String ns : namespaces) {
          informers.add(inform(kind, client.genericKubernetesResources(kind).inNamespace(ns)));
        }
      }
    }
  }

  private SharedIndexInformer<GenericKubernetesResource> inform(
      ResourceDefinitionContext kind,
      io.fabric8.kubernetes.client.dsl.Informable<GenericKubernetesResource> resources) {
    SharedIndexInformer<GenericKubernetesResource> informer = resources.runnableInformer(0);
    informer.addEventHandler(handler(kind, informer));
    informer.run();
    return informer;
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "ds2-loop-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** True once every informer has listed its resources. */
  public boolean synced() {
    return !informers.isEmpty() && informers.stream().allMatch(SharedIndexInformer::hasSynced);
  }

  /** How many resources have a running loop. */
  public int managed() {
    return jobs.size();
  }

  /** The loop of a resource, if it has one (tests: a resync must not replace it). */
  Optional<ManagedJob> job(String uid) {
    return Optional.ofNullable(jobs.get(uid));
  }

  /** The threads stepping the jobs (for the fleet benchmark: independent of the number of jobs). */
  public int schedulerThreads() {
    return scheduler == null ? 0 : scheduler.getPoolSize();
  }

  private ResourceEventHandler<GenericKubernetesResource> handler(
      ResourceDefinitionContext kind, SharedIndexInformer<GenericKubernetesResource> informer) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource r) {
        reconcile(kind, informer, r);
      }

      @Override
      public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource r) {
        reconcile(kind, informer, r);
      }

      @Override
      public void onDelete(GenericKubernetesResource r, boolean unknownFinalState) {
        stop(r.getMetadata().getUid());
        metrics.forget(r.getMetadata().getNamespace(), r.getMetadata().getName());
        events.forget(r.getMetadata().getUid());
      }
    };
  }

  private synchronized void reconcile(
      ResourceDefinitionContext kind,
      SharedIndexInformer<GenericKubernetesResource> informer,
      GenericKubernetesResource r) {
    String uid = r.getMetadata().getUid();
    if (r.getMetadata().getDeletionTimestamp() != null) {
      // Being deleted: the Flink operator's finalizer is tearing the cluster down. Polls would
      // fail and a rescale would patch a resource on its way out, so the loop ends here.
      stopAndForget(uid, r);
      return;
    }
    Optional<JobSettings> settings;
    try {
      settings = JobSettings.of(r, defaults, endpoints);
    } catch (JobSettings.Invalid e) {
      events.warning(
          r, Reason.InvalidAnnotation, e.getMessage() + "; ds2 leaves this job untouched");
      stopAndForget(uid, r);
      return;
    }
    if (settings.isEmpty()) {
      stopAndForget(uid, r);
      return;
    }
    Mode mode = settings.get().mode() == JobSettings.Mode.ENABLED ? Mode.ACT : Mode.ADVISOR;
    if (mode == Mode.ACT && FlinkKinds.builtInAutoscalerEnabled(r)) {
      events.warning(
          r,
          Reason.ConflictingAutoscaler,
          "job.autoscaler.enabled is true on this resource: the Flink operator's autoscaler owns its"
              + " parallelism overrides, so ds2 only advises");
      mode = Mode.ADVISOR;
    }
    ManagedJob running = jobs.get(uid);
    if (running != null && running.settings().equals(settings.get()) && running.mode() == mode) {
      return;
    }
    stop(uid);
    String key = Cache.metaNamespaceKeyFunc(r);
    Supplier<GenericKubernetesResource> current = () -> informer.getStore().getByKey(key);
    ManagedJob job =
        new ManagedJob(
            shared,
            r,
            settings.get(),
            mode,
            current,
            WriteFence.fenced(
                writes
                    .genericKubernetesResources(kind)
                    .inNamespace(r.getMetadata().getNamespace())
                    .withName(r.getMetadata().getName()),
                leads));
    jobs.put(uid, job);
    job.start(StartSpread.delay(r, startedAt, clock.instant(), settings.get().options().window()));
  }

  /**
   * A namespace's ResourceQuotas, read when a native-mode job decides (once a window); none if they
   * cannot be read (then the job's slots are not limited by them, as before the chart allowed it).
   */
  private List<io.fabric8.kubernetes.api.model.ResourceQuota> quotas(String namespace) {
    try {
      return client.resourceQuotas().inNamespace(namespace).list().getItems();
    } catch (KubernetesClientException e) {
      LOG.debug("ResourceQuotas of {} not read: {}", namespace, e.getMessage());
      return List.of();
    }
  }

  private void stop(String uid) {
    ManagedJob job = jobs.remove(uid);
    if (job != null) {
      job.stop();
    }
  }

  /** A job that opted out keeps no series or de-duplication entries either. */
  private void stopAndForget(String uid, GenericKubernetesResource r) {
    if (jobs.containsKey(uid)) {
      stop(uid);
      metrics.forget(r.getMetadata().getNamespace(), r.getMetadata().getName());
    }
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
    jobs.values().forEach(ManagedJob::stop);
    jobs.clear();
    if (scheduler != null) {
      scheduler.shutdownNow();
      try {
        scheduler.awaitTermination(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
