package io.ds2.controller.k8s;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.flink.FlinkRestClient;
import io.ds2.model.options.Ds2Options;
import io.ds2.testkit.FluidJob;
import io.ds2.testkit.SimulatedFlink;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The operator against a real kube-apiserver with RBAC on, running as the Helm chart's service
 * account with a token the server issued: every call it makes is authorized by the chart's rules,
 * resourceVersion preconditions and merge patches behave as in a cluster, and the CRDs are the
 * Flink operator's own (schema validated). Flink is the simulated REST endpoint; a stand-in plays
 * the Flink operator's part on status.
 */
@Tag("kube-apiserver")
class RealApiServerTest {
  private static final String NS = OperatorTestSupport.NS;
  private static final String RELEASE_NS = "ds2-system";
  private static RealKubernetes kube;
  private static SimulatedFlink flink;
  private static int jobs;

  @BeforeAll
  static void start() throws Exception {
    kube = RealKubernetes.start();
    kube.namespaces(NS, RELEASE_NS, "other");
    kube.installFlinkCrds();
    flink = new SimulatedFlink(4);
  }

  @AfterAll
  static void stop() {
    if (flink != null) {
      flink.close();
    }
    if (kube != null) {
      kube.close();
    }
  }

  /** A simulated job at parallelism 1 that needs Parse 4 and Sink 3 at 300 records/s. */
  private static FluidJob job() {
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
  private static String parse(FluidJob job) {
    return job.stages().get(1).id();
  }

  private static String sink(FluidJob job) {
    return job.stages().get(2).id();
  }

  /** Each test's resources go with it: an operator of a later test would manage them too. */
  @AfterEach
  void deleteDeployments() {
    kube.admin().genericKubernetesResources(FlinkKinds.DEPLOYMENT).inNamespace(NS).delete();
  }

  private static Map<String, String> annotations(Map<String, String> more) {
    Map<String, String> a = new HashMap<>(more);
    a.put(JobSettings.AUTOSCALING, "enabled");
    a.put(JobSettings.REST_URL, flink.url().toString());
    a.put("ds2.io/window", "4s");
    a.put("ds2.io/warm-up", "0s");
    a.put("ds2.io/sample-interval", "500ms");
    a.put("ds2.io/activation", "1");
    return a;
  }

  private static GenericKubernetesResource deployment(
      String name, FluidJob job, Map<String, String> annotations, Map<String, Object> conf) {
    return OperatorTestSupport.create(
        kube.admin(), name, annotations, conf, StandInFlinkOperator.status(1, job.id()));
  }

  private static Ds2Operator operator(KubernetesClient as) {
    return new Ds2Operator(
            as,
            List.of(NS),
            Ds2Options.defaults(),
            new EventRecorder(as, Clock.systemUTC(), Duration.ofMinutes(30)),
            new OperatorMetrics())
        .withEndpoints(new FlinkEndpoints(List.of(flink.url()), Optional.empty()));
  }

  private static StandInFlinkOperator flinkOperator(FluidJob job) {
    return new StandInFlinkOperator(
        kube.admin(), NS, new FlinkRestClient(flink.url(), Duration.ofSeconds(5)), job.id());
  }

  private static List<Event> events(String name, String reason) {
    return kube.admin().v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .filter(e -> reason.equals(e.getReason()))
        .toList();
  }

  private static Map<String, String> annotationsOf(String name) {
    return OperatorTestSupport.get(kube.admin(), name).getMetadata().getAnnotations();
  }

  private static KubernetesClient chartServiceAccount() {
    return kube.clientAs(
        RELEASE_NS, ChartRbac.apply(kube.admin(), "ds2", RELEASE_NS, Map.of(), null));
  }

  @Test
  void theChartsServiceAccountScalesAJobThroughTheOverridesAndLeavesNoMarker() throws Exception {
    FluidJob job = job();
    deployment("scaled", job, annotations(Map.of()), Map.of());
    try (StandInFlinkOperator stand = flinkOperator(job);
        Ds2Operator ds2 = operator(chartServiceAccount())) {
      ds2.start();
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(
              () ->
                  job.parallelism().get(parse(job)) == 4 && job.parallelism().get(sink(job)) == 3);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> annotationsOf("scaled").containsKey(JobSettings.APPLIED));
      // A real merge patch with null removes the key; the mock server left a null behind.
      assertFalse(
          annotationsOf("scaled").containsKey(JobSettings.IN_FLIGHT),
          annotationsOf("scaled").toString());
      assertFalse(
          events("scaled", "ScalingApplied").isEmpty(), "an event written as the service account");
      assertTrue(annotationsOf("scaled").containsKey(JobSettings.LAST_DECISION));
    }
  }

  @Test
  void aWriteInBetweenIsARealConflictAndThePatchIsMadeOnAFreshCopy() {
    FluidJob job = job();
    deployment("conflict", job, Map.of(), Map.of());
    KubernetesClient sa = chartServiceAccount();
    var resource =
        sa.genericKubernetesResources(FlinkKinds.DEPLOYMENT).inNamespace(NS).withName("conflict");
    GenericKubernetesResource stale = resource.get();
    kube.admin()
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(NS)
        .withName("conflict")
        .edit(
            r -> {
              r.getMetadata().setLabels(Map.of("team", "payments"));
              return r;
            });
    AtomicInteger reReads = new AtomicInteger();
    OverridesActuator actuator =
        new OverridesActuator(
            () -> stale,
            () -> {
              reReads.incrementAndGet();
              return resource.get();
            },
            resource,
            null,
            Duration.ofMillis(100));
    actuator.patch(parse(job) + ":4");
    assertEquals(1, reReads.get(), "the stale copy's patch got a 409; one fresh re-read");
    assertEquals(
        parse(job) + ":4", FlinkKinds.flinkConfiguration(resource.get()).get(FlinkKinds.OVERRIDES));
  }

  @Test
  void overridesSomeoneElseSetAreNotPatchedBack() {
    FluidJob job = job();
    Map<String, String> applied = Map.of(JobSettings.APPLIED, parse(job) + ":2");
    deployment(
        "reverted", job, annotations(applied), Map.of(FlinkKinds.OVERRIDES, parse(job) + ":1"));
    long generation =
        OperatorTestSupport.get(kube.admin(), "reverted").getMetadata().getGeneration();
    try (Ds2Operator ds2 = operator(chartServiceAccount())) {
      ds2.start();
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(() -> !events("reverted", "OverridesReverted").isEmpty());
    }
    assertEquals(
        generation,
        OperatorTestSupport.get(kube.admin(), "reverted").getMetadata().getGeneration());
  }

  @Test
  void twoInstancesHandOverTheLeaseAsTheServiceAccount() {
    KubernetesClient sa = chartServiceAccount();
    LeaderElectedOperator.Lease lease =
        new LeaderElectedOperator.Lease(
            RELEASE_NS,
            "ds2-leader",
            "a",
            Duration.ofSeconds(3),
            Duration.ofSeconds(2),
            Duration.ofMillis(250));
    try (LeaderElectedOperator a = new LeaderElectedOperator(sa, () -> operator(sa), lease);
        LeaderElectedOperator b =
            new LeaderElectedOperator(
                sa,
                () -> operator(sa),
                new LeaderElectedOperator.Lease(
                    RELEASE_NS,
                    "ds2-leader",
                    "b",
                    Duration.ofSeconds(3),
                    Duration.ofSeconds(2),
                    Duration.ofMillis(250)))) {
      a.start();
      await().atMost(Duration.ofSeconds(20)).until(a::leading);
      b.start();
      await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> !b.leading());
      a.close();
      await().atMost(Duration.ofSeconds(20)).until(b::leading);
      assertEquals(
          "b",
          kube.admin()
              .leases()
              .inNamespace(RELEASE_NS)
              .withName("ds2-leader")
              .get()
              .getSpec()
              .getHolderIdentity());
    }
  }

  /**
   * Renewals cut: the Lease is taken by another identity that then never renews. The leader stops
   * its loops, is not alive-but-idle, stands by while the other holds the Lease, and takes it back
   * once it expires.
   */
  @Test
  void aLeaderWhoseLeaseWasTakenStandsByAndTakesItBackWhenItExpires() {
    KubernetesClient sa = chartServiceAccount();
    LeaderElectedOperator.Lease lease =
        new LeaderElectedOperator.Lease(
            RELEASE_NS,
            "ds2-leader",
            "a",
            Duration.ofSeconds(3),
            Duration.ofSeconds(2),
            Duration.ofMillis(250));
    try (LeaderElectedOperator a = new LeaderElectedOperator(sa, () -> operator(sa), lease)) {
      a.start();
      await().atMost(Duration.ofSeconds(20)).until(a::leading);
      assertTrue(a.healthy());
      int held = 10;
      kube.admin()
          .leases()
          .inNamespace(RELEASE_NS)
          .withName("ds2-leader")
          .edit(
              l -> {
                l.getSpec().setHolderIdentity("other");
                l.getSpec().setLeaseDurationSeconds(held);
                l.getSpec().setRenewTime(java.time.ZonedDateTime.now());
                return l;
              });
      long takenAt = System.nanoTime();
      await().atMost(Duration.ofSeconds(8)).until(() -> !a.leading());
      // One writer: while the other's Lease is valid, "a" does not lead, and stays alive.
      await()
          .during(Duration.ofSeconds(held - 3))
          .atMost(Duration.ofSeconds(held))
          .until(() -> !a.leading());
      await().atMost(Duration.ofSeconds(30)).until(a::leading);
      assertTrue(
          System.nanoTime() - takenAt >= Duration.ofSeconds(held).toNanos(),
          "led again only after the other's Lease expired");
      assertEquals(
          "a",
          kube.admin()
              .leases()
              .inNamespace(RELEASE_NS)
              .withName("ds2-leader")
              .get()
              .getSpec()
              .getHolderIdentity());
      await().atMost(Duration.ofSeconds(5)).until(a::healthy);
    }
  }

  @Test
  void theServiceAccountCannotWriteStatusNorReadSecrets() {
    FluidJob job = job();
    deployment("guarded", job, Map.of(), Map.of());
    KubernetesClient sa = chartServiceAccount();
    KubernetesClientException status =
        assertThrows(
            KubernetesClientException.class,
            () ->
                sa.genericKubernetesResources(FlinkKinds.DEPLOYMENT)
                    .inNamespace(NS)
                    .withName("guarded")
                    .subresource("status")
                    .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"status\":{\"lifecycleState\":\"FAILED\"}}"));
    assertEquals(403, status.getCode(), status.getMessage());
    KubernetesClientException secrets =
        assertThrows(KubernetesClientException.class, () -> sa.secrets().inNamespace(NS).list());
    assertEquals(403, secrets.getCode(), secrets.getMessage());
  }

  @Test
  void aChartWatchingOneNamespaceCannotTouchAnother() {
    KubernetesClient one =
        kube.clientAs(
            RELEASE_NS,
            ChartRbac.apply(
                kube.admin(), "ds2-one", RELEASE_NS, Map.of("watchNamespaces[0]", NS), null));
    assertTrue(
        one.genericKubernetesResources(FlinkKinds.DEPLOYMENT)
                .inNamespace(NS)
                .list()
                .getItems()
                .size()
            >= 0);
    KubernetesClientException other =
        assertThrows(
            KubernetesClientException.class,
            () ->
                one.genericKubernetesResources(FlinkKinds.DEPLOYMENT).inNamespace("other").list());
    assertEquals(403, other.getCode(), other.getMessage());
  }

  @Test
  void aChartWithoutThePatchVerbFailsWithA403NamingVerbAndResource() {
    FluidJob job = job();
    deployment("unpatchable", job, annotations(Map.of()), Map.of());
    KubernetesClient noPatch =
        kube.clientAs(
            RELEASE_NS,
            ChartRbac.apply(kube.admin(), "ds2-nopatch", RELEASE_NS, Map.of(), "patch"));
    try (Ds2Operator ds2 = operator(noPatch)) {
      ds2.start();
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(() -> !events("unpatchable", "ScalingSkipped").isEmpty());
    }
    String message = events("unpatchable", "ScalingSkipped").get(0).getMessage();
    assertTrue(message.contains("HTTP 403"), message);
    assertTrue(message.contains("cannot patch resource \"flinkdeployments\""), message);
    assertEquals(1, job.parallelism().get(parse(job)), "nothing was rescaled");
  }

  @Test
  void anInvalidAnnotationIsAWarningEventAndTheJobIsLeftAlone() {
    FluidJob job = job();
    Map<String, String> bad = new HashMap<>(annotations(Map.of()));
    bad.put("ds2.io/window", "soon");
    deployment("invalid", job, bad, Map.of());
    long generation =
        OperatorTestSupport.get(kube.admin(), "invalid").getMetadata().getGeneration();
    try (Ds2Operator ds2 = operator(chartServiceAccount())) {
      ds2.start();
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(() -> !events("invalid", "InvalidAnnotation").isEmpty());
      assertEquals(0, ds2.managed());
    }
    String message = events("invalid", "InvalidAnnotation").get(0).getMessage();
    assertTrue(message.contains("ds2.io/window"), message);
    assertEquals(
        generation, OperatorTestSupport.get(kube.admin(), "invalid").getMetadata().getGeneration());
  }
}
