package io.ds2.operator;

import io.ds2.core.options.Ds2Options;
import io.ds2.flink.FlinkRestClient;
import io.ds2.testkit.FluidJob;
import io.ds2.testkit.SimulatedFlink;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * What the tests against a real kube-apiserver share: the server (RBAC on, the Flink operator's
 * CRDs), a simulated Flink REST endpoint, jobs on it, the chart's service account, and helpers to
 * read what the operator wrote.
 */
@Tag("kube-apiserver")
abstract class RealApiServerBase {
  static final String NS = OperatorTestSupport.NS;
  static final String RELEASE_NS = "ds2-system";
  static RealKubernetes kube;
  static SimulatedFlink flink;
  static int jobs;

  @BeforeAll
  static void start() throws Exception {
    kube = RealKubernetes.shared();
    kube.namespaces(NS, RELEASE_NS, "other");
    kube.installFlinkCrds();
    flink = new SimulatedFlink(4);
  }

  @AfterAll
  static void stop() {
    if (flink != null) {
      flink.close();
    }
  }

  /** A simulated job at parallelism 1 that needs Parse 4 and Sink 3 at 300 records/s. */
  static FluidJob job() {
    String id = String.format("%032x", ++jobs);
    FluidJob job =
        new FluidJob(
            id,
            List.of(
                new FluidJob.Stage("s" + jobs, "Source: In", 0, 1),
                new FluidJob.Stage("p" + jobs, "Parse", 0.0111, 1),
                new FluidJob.Stage("k" + jobs, "Sink", 0.008, 0)),
            300,
            System.currentTimeMillis());
    flink.add(job);
    return job;
  }

  /** The id of a simulated job's Parse vertex. */
  static String parse(FluidJob job) {
    return job.stages().get(1).id();
  }

  static String sink(FluidJob job) {
    return job.stages().get(2).id();
  }

  /** Each test's resources go with it: an operator of a later test would manage them too. */
  @AfterEach
  void deleteDeployments() {
    kube.admin().genericKubernetesResources(FlinkKinds.DEPLOYMENT).inNamespace(NS).delete();
  }

  static Map<String, String> annotations(Map<String, String> more) {
    Map<String, String> a = new HashMap<>(more);
    a.put(JobSettings.AUTOSCALING, "enabled");
    a.put(JobSettings.REST_URL, flink.url().toString());
    a.put("ds2.io/window", "4s");
    a.put("ds2.io/warm-up", "0s");
    a.put("ds2.io/sample-interval", "500ms");
    a.put("ds2.io/activation", "1");
    return a;
  }

  static GenericKubernetesResource deployment(
      String name, FluidJob job, Map<String, String> annotations, Map<String, Object> conf) {
    return OperatorTestSupport.create(
        kube.admin(), name, annotations, conf, StandInFlinkOperator.status(1, job.id()));
  }

  static Ds2Operator operator(KubernetesClient as) {
    return new Ds2Operator(
            as,
            List.of(NS),
            Ds2Options.defaults(),
            new EventRecorder(as, Clock.systemUTC(), Duration.ofMinutes(30)),
            new OperatorMetrics())
        .withEndpoints(new FlinkEndpoints(List.of(flink.url()), Optional.empty()));
  }

  static StandInFlinkOperator flinkOperator(FluidJob job) {
    return new StandInFlinkOperator(
        kube.admin(), NS, new FlinkRestClient(flink.url(), Duration.ofSeconds(5)), job.id());
  }

  static List<Event> events(String name, String reason) {
    return kube.admin().v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .filter(e -> reason.equals(e.getReason()))
        .toList();
  }

  static Map<String, String> annotationsOf(String name) {
    return OperatorTestSupport.get(kube.admin(), name).getMetadata().getAnnotations();
  }

  static KubernetesClient chartServiceAccount() {
    return kube.clientAs(
        RELEASE_NS, ChartRbac.apply(kube.admin(), "ds2", RELEASE_NS, Map.of(), null));
  }
}
