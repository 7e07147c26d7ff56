package io.ds2.operator;

import static org.awaitility.Awaitility.await;

import io.ds2.core.options.Ds2Options;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.dto.JobDetails;
import io.ds2.testkit.FakeJob;
import io.ds2.testkit.FluidJob;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.LocalFlinkCluster;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import org.apache.flink.core.execution.JobClient;

/** FlinkDeployments on the fabric8 mock server, and the events written about them. */
final class OperatorTestSupport {
  static final String NS = "flink";

  private OperatorTestSupport() {}

  static void registerKinds(KubernetesMockServer server) {
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
  }

  /**
   * A mock API server that answers from injected expectations first (faults) and else as a CRUD
   * store, with the Flink kinds registered; started.
   */
  static KubernetesMockServer faultServer() {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            responses,
            new KubernetesMixedDispatcher(responses),
            false);
    server.init();
    registerKinds(server);
    return server;
  }

  /**
   * A client of {@code server} that retries a 5xx 3 times, 10 ms apart (production: 10, 100 ms).
   */
  static KubernetesClient fastRetryingClient(KubernetesMockServer server) {
    return server.createClient(
        b ->
            b.editOrNewConfig()
                .withRequestRetryBackoffLimit(3)
                .withRequestRetryBackoffInterval(10)
                .endConfig());
  }

  static GenericKubernetesResource create(
      KubernetesClient client,
      String name,
      Map<String, String> annotations,
      Map<String, Object> conf,
      Map<String, Object> status) {
    GenericKubernetesResource r =
        new GenericKubernetesResourceBuilder()
            .withApiVersion(FlinkKinds.GROUP + "/" + FlinkKinds.VERSION)
            .withKind("FlinkDeployment")
            .withNewMetadata()
            .withName(name)
            .withNamespace(NS)
            .withAnnotations(annotations)
            .endMetadata()
            .withAdditionalProperties(
                Map.of(
                    "spec",
                    Map.of(
                        "flinkVersion",
                        "v1_20",
                        "mode",
                        "native",
                        "flinkConfiguration",
                        conf,
                        "job",
                        Map.of("jarURI", "local:///job.jar", "state", "running"))))
            .build();
    GenericKubernetesResource created =
        client
            .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
            .inNamespace(NS)
            .resource(r)
            .create();
    if (!status.isEmpty()) {
      created.setAdditionalProperty("status", status);
      created =
          client
              .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
              .inNamespace(NS)
              .resource(created)
              .updateStatus();
    }
    return created;
  }

  static List<Event> events(KubernetesClient client, String reason) {
    return client.v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> reason.equals(e.getReason()))
        .toList();
  }

  /** Submits {@code spec} and waits until the job is RUNNING. */
  static JobClient submitRunning(LocalFlinkCluster cluster, JobSpec spec) throws Exception {
    JobClient job = cluster.submit(spec);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> job.getJobStatus().get().name().equals("RUNNING"));
    return job;
  }

  /** Parallelism of every vertex, by name, as Flink runs it. */
  static Map<String, Integer> runningParallelism(FlinkRestClient rest, String jobId) {
    Map<String, Integer> p = new HashMap<>();
    for (JobDetails.Vertex v : rest.get("/jobs/" + jobId, JobDetails.class).vertices()) {
      p.put(v.name(), v.parallelism()); // sources included: they are sized like any vertex
    }
    return p;
  }

  /** A REST URL where nothing listens, for tests whose jobs are never polled successfully. */
  static final String NOTHING_LISTENS = "http://127.0.0.1:1";

  /**
   * An operator watching the test namespace with default options, whose allowlist admits the
   * loopback endpoints the test runs (the jobs' own REST Services do not exist here) and {@link
   * #NOTHING_LISTENS}.
   */
  static Ds2Operator operator(KubernetesClient client, OperatorMetrics metrics, URI... flink) {
    List<URI> allowed = new ArrayList<>(List.of(flink));
    allowed.add(URI.create(NOTHING_LISTENS));
    return new Ds2Operator(
            client,
            List.of(NS),
            Ds2Options.defaults(),
            new EventRecorder(client, Clock.systemUTC(), Duration.ofMinutes(30)),
            metrics)
        .withEndpoints(new FlinkEndpoints(allowed, Optional.empty()));
  }

  static GenericKubernetesResource get(KubernetesClient client, String name) {
    return client
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(NS)
        .withName(name)
        .get();
  }

  /** The fluid test job every operator test without Flink uses: Parse needs 4, Sink 3 at 300/s. */
  static FakeJob fakeJob() {
    return new FakeJob(
        "job",
        Clock.systemUTC(),
        300,
        List.of(
            new FluidJob.Stage("s", "Source: In", 0, 1),
            new FluidJob.Stage("p", "Parse", 0.0111, 1),
            new FluidJob.Stage("k", "Sink", 0.008, 0)));
  }

  /** An operator on the test namespace whose jobs' ends are {@code ends} (no Flink). */
  static Ds2Operator operator(KubernetesClient client, JobEnds ends) {
    return new Ds2Operator(
            client,
            List.of(NS),
            Ds2Options.defaults(),
            new EventRecorder(client, Clock.systemUTC(), Duration.ofMinutes(30)),
            new OperatorMetrics())
        .withEnds(ends);
  }
}
