package io.ds2.experiments.scale;

import io.ds2.core.options.Ds2Options;
import io.ds2.operator.Ds2Operator;
import io.ds2.operator.EventRecorder;
import io.ds2.operator.FlinkKinds;
import io.ds2.operator.OperatorMetrics;
import io.ds2.operator.StandInFlinkOperator;
import io.ds2.testkit.FluidJob;
import io.ds2.testkit.SimulatedFlink;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * N simulated jobs managed by ds2's operator through its own path: FlinkDeployments on a Kubernetes
 * API server (fabric8's mock server, in memory), the operator's informers, shared scheduler, state
 * store and overrides actuator, and per job a fluid model behind one simulated Flink REST endpoint;
 * a stand-in for the Flink operator applies the overrides. What ds2 did is read back from the
 * operator's own metrics.
 */
final class Fleet implements AutoCloseable {
  static final String NS = "fleet";
  // The Flink operator's, on every FlinkDeployment it manages.
  private static final String FINALIZER = "flinkdeployments.flink.apache.org/finalizer";
  // How long a deleted job's cluster takes to go (the Flink operator deletes its deployments).
  private static final Duration TEARDOWN = Duration.ofSeconds(3);
  // The mock API server logs every request at INFO, thousands a second here. Held: JUL keeps only
  // weak references to loggers, and a collected one forgets its level.
  private static final java.util.logging.Logger MOCK_SERVER_LOG =
      java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");
  private final Map<String, String> options;
  private final SimulatedFlink flink;
  private final KubernetesMockServer server;
  private final KubernetesClient client;
  private final OperatorMetrics metrics = new OperatorMetrics();
  private final EventRecorder events;
  private final Ds2Operator operator;
  private final StandInFlinkOperator standIn;
  private final Map<String, FluidJob> jobs = new ConcurrentHashMap<>();
  private final Map<String, Double> baseDemand = new ConcurrentHashMap<>();
  // Tears deleted jobs down after the Flink operator's usual delay (see remove).
  private final ScheduledExecutorService teardown =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "fleet-teardown");
            t.setDaemon(true);
            return t;
          });
  private int created;
  private boolean closed;
  // Warning events expired from the mock API server (expireEvents), by reason.
  private final Map<String, Integer> expiredWarnings = new java.util.TreeMap<>();

  Fleet(int n, Map<String, String> options) throws Exception {
    this(n, options, Duration.ofMinutes(30));
  }

  /**
   * @param dedupe how long the operator's events de-duplicate (30 min in production)
   */
  Fleet(int n, Map<String, String> options, Duration dedupe) throws Exception {
    this.options = options;
    MOCK_SERVER_LOG.setLevel(java.util.logging.Level.WARNING);
    flink = new SimulatedFlink(8);
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    server.init();
    for (var kind : List.of(FlinkKinds.DEPLOYMENT, FlinkKinds.SESSION_JOB)) {
      server.expectCustomResource(
          new CustomResourceDefinitionContext.Builder()
              .withGroup(kind.getGroup())
              .withVersion(kind.getVersion())
              .withKind(kind.getKind())
              .withPlural(kind.getPlural())
              .withScope("Namespaced")
              .build());
    }
    client = server.createClient();
    events = new EventRecorder(client, Clock.systemUTC(), dedupe);
    // The simulated endpoint stands for every job's REST Service: the allowlist admits it.
    operator =
        new Ds2Operator(client, List.of(NS), Ds2Options.defaults(), events, metrics)
            .withEndpoints(
                new io.ds2.operator.FlinkEndpoints(
                    List.of(flink.url()), java.util.Optional.empty()));
    standIn = StandInFlinkOperator.forFleet(client, NS, jobs::get);
    for (int i = 0; i < n; i++) {
      add();
    }
  }

  /** Starts the operator on the jobs created so far. */
  void start() {
    operator.start();
  }

  /** Creates one more managed job (a FlinkDeployment and its simulated job); returns its name. */
  synchronized String add() {
    int i = created++;
    String name = String.format("job-%05d", i);
    String id = String.format("%032x", i + 1);
    // 300-400 records/s into costs that need 3-5 Parse, 2-3 Enrich and 1-2 Sink instances.
    double demand = 300 + (i % 5) * 25;
    FluidJob job =
        new FluidJob(
            id,
            List.of(
                new FluidJob.Stage("a" + id.substring(1), "Source: In", 0, 1),
                new FluidJob.Stage("b" + id.substring(1), "Parse", 0.0111, 1),
                new FluidJob.Stage("c" + id.substring(1), "Enrich", 0.0065, 0.5),
                new FluidJob.Stage("d" + id.substring(1), "Sink", 0.008, 0)),
            demand,
            System.currentTimeMillis());
    flink.add(job);
    jobs.put(name, job);
    baseDemand.put(name, demand);
    Map<String, String> annotations = new HashMap<>();
    annotations.put("ds2.io/autoscaling", "enabled");
    annotations.put("ds2.io/flink-rest-url", flink.url().toString());
    options.forEach((k, v) -> annotations.put("ds2.io/" + k, v));
    GenericKubernetesResource r =
        new GenericKubernetesResourceBuilder()
            .withApiVersion(FlinkKinds.GROUP + "/" + FlinkKinds.VERSION)
            .withKind("FlinkDeployment")
            .withNewMetadata()
            .withName(name)
            .withNamespace(NS)
            .withAnnotations(annotations)
            .withFinalizers(FINALIZER)
            .endMetadata()
            .withAdditionalProperties(
                Map.of("spec", Map.of("flinkConfiguration", Map.of(), "job", Map.of())))
            .build();
    var resource =
        client.genericKubernetesResources(FlinkKinds.DEPLOYMENT).inNamespace(NS).resource(r);
    long generation = resource.create().getMetadata().getGeneration();
    client
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(NS)
        .withName(name)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            StandInFlinkOperator.statusPatch(generation, id));
    return name;
  }

  /**
   * Deletes a managed job as the Flink operator sees it happen: the FlinkDeployment is marked for
   * deletion (its finalizer holds it), the cluster is torn down a few seconds later (here, the
   * simulated job), and only then does the finalizer let the resource go.
   */
  void remove(String name) {
    client
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(NS)
        .withName(name)
        .delete();
    FluidJob job = jobs.remove(name);
    baseDemand.remove(name);
    teardown.schedule(
        () -> {
          if (job != null) {
            flink.remove(job.id());
          }
          client
              .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
              .inNamespace(NS)
              .withName(name)
              .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
        },
        TEARDOWN.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /**
   * Drops the requests the mock API server keeps for tests to take (every one, bodies included):
   * they are the mock's, not the operator's, and would show as a heap that grows with the run.
   */
  void forgetRecordedRequests() throws InterruptedException {
    while (server.takeRequest(0, TimeUnit.MILLISECONDS) != null) {
      // drained
    }
  }

  /**
   * Deletes the events last updated more than {@code ttl} ago, as a real API server does ({@code
   * --event-ttl}, an hour by default): the mock keeps every event for ever, which would show as a
   * heap that grows with the run, the mock's, not the operator's. Warnings are counted before they
   * go ({@link #warnings}).
   */
  void expireEvents(Duration ttl) {
    java.time.Instant cutoff = java.time.Instant.now().minus(ttl);
    for (var e : client.v1().events().inNamespace(NS).list().getItems()) {
      String last = e.getLastTimestamp();
      if (last != null && java.time.Instant.parse(last).isBefore(cutoff)) {
        countWarning(expiredWarnings, e);
        client.v1().events().inNamespace(NS).resource(e).delete();
      }
    }
  }

  /** The Warning events the operator raised so far, by reason (repeats counted). */
  Map<String, Integer> warnings() {
    Map<String, Integer> byReason = new java.util.TreeMap<>(expiredWarnings);
    for (var e : client.v1().events().inNamespace(NS).list().getItems()) {
      countWarning(byReason, e);
    }
    return byReason;
  }

  private static void countWarning(
      Map<String, Integer> byReason, io.fabric8.kubernetes.api.model.Event e) {
    if ("Warning".equals(e.getType())) {
      int n = e.getCount() == null ? 1 : e.getCount();
      byReason.merge(String.valueOf(e.getReason()), n, Integer::sum);
    }
  }

  List<String> names() {
    return new ArrayList<>(jobs.keySet());
  }

  FluidJob job(String name) {
    return jobs.get(name);
  }

  OperatorMetrics.JobFigures figures(String name) {
    return metrics.figures(NS, name);
  }

  Ds2Operator operator() {
    return operator;
  }

  OperatorMetrics metrics() {
    return metrics;
  }

  EventRecorder events() {
    return events;
  }

  long requests() {
    return flink.requests();
  }

  /** Connections every REST client of the process holds open (they share one pool). */
  int openConnections() {
    return new io.ds2.flink.FlinkRestClient(flink.url(), Duration.ofSeconds(10)).openConnections();
  }

  /** Every job's demand times {@code factor} of its base (300-400 records/s). */
  void scaleDemand(double factor) {
    jobs.forEach((name, job) -> job.demand(baseDemand.getOrDefault(name, 300.0) * factor));
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    teardown.shutdownNow();
    operator.close();
    standIn.close();
    client.close();
    server.destroy();
    flink.close();
  }
}
