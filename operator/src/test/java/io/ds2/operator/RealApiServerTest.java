package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.testkit.FluidJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
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
class RealApiServerTest extends RealApiServerBase {
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
      // Seen applied, ds2 removes its markers: a real merge patch with null removes the key (the
      // mock server left a null behind).
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> !annotationsOf("scaled").containsKey(JobSettings.IN_FLIGHT));
      assertFalse(
          annotationsOf("scaled").containsKey(JobSettings.PREVIOUS),
          annotationsOf("scaled").toString());
      assertEquals(
          FlinkKinds.flinkConfiguration(OperatorTestSupport.get(kube.admin(), "scaled"))
              .get(FlinkKinds.OVERRIDES),
          annotationsOf("scaled").get(JobSettings.APPLIED));
      assertFalse(
          events("scaled", "ScalingApplied").isEmpty(), "an event written as the service account");
      assertTrue(annotationsOf("scaled").containsKey(JobSettings.LAST_DECISION));
    }
  }

  /** The chart's Lease with short test timings (3 s, renewed within 2 s, retried every 250 ms). */
  private static LeaderElectedOperator.Lease lease(String identity) {
    return new LeaderElectedOperator.Lease(
        RELEASE_NS,
        "ds2-leader",
        identity,
        Duration.ofSeconds(3),
        Duration.ofSeconds(2),
        Duration.ofMillis(250));
  }

  @Test
  void twoInstancesHandOverTheLeaseAsTheServiceAccount() {
    KubernetesClient sa = chartServiceAccount();
    LeaderElectedOperator.Lease lease = lease("a");
    try (LeaderElectedOperator a = new LeaderElectedOperator(sa, () -> operator(sa), lease);
        LeaderElectedOperator b = new LeaderElectedOperator(sa, () -> operator(sa), lease("b"))) {
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
    LeaderElectedOperator.Lease lease = lease("a");
    try (LeaderElectedOperator a = new LeaderElectedOperator(sa, () -> operator(sa), lease)) {
      a.start();
      await().atMost(Duration.ofSeconds(20)).until(a::leading);
      assertTrue(a.healthy());
      int held = 10;
      // The leader renews every 250 ms: an edit in between is a real 409, tried again.
      await()
          .atMost(Duration.ofSeconds(10))
          .ignoreException(KubernetesClientException.class)
          .until(
              () -> {
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
                return true;
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

  /**
   * Renewals cut by an API-server outage longer than the Lease: the leader stops leading within its
   * renew deadline while the server is still down (not when it answers again: a renewal retried
   * through the outage kept a replica leading 28 s without a Lease), and leads again once the
   * server is back.
   */
  @Test
  void aLeaderCutOffByAnOutageStopsWithinItsRenewDeadlineAndLeadsAgainAfter() throws Exception {
    KubernetesClient sa = chartServiceAccount();
    LeaderElectedOperator.Lease lease = lease("a");
    try (LeaderElectedOperator a = new LeaderElectedOperator(sa, () -> operator(sa), lease)) {
      a.start();
      await().atMost(Duration.ofSeconds(20)).until(a::leading);
      // Down longer than the Lease (3 s): with the restart's own seconds, well past the stop.
      Duration down = Duration.ofSeconds(5);
      var outage =
          java.util.concurrent.CompletableFuture.runAsync(
              () -> {
                try {
                  kube.restartApiServer(down);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      long cut = System.nanoTime();
      await().atMost(Duration.ofSeconds(8)).until(() -> !a.leading());
      Duration stoppedAfter = Duration.ofNanos(System.nanoTime() - cut);
      assertFalse(outage.isDone(), "stopped while the server was still down");
      // The renew deadline (2 s) and one renewal's timeout (1 s), with room for a busy machine.
      assertTrue(
          stoppedAfter.compareTo(Duration.ofSeconds(6)) < 0, "stopped after " + stoppedAfter);
      outage.get(90, java.util.concurrent.TimeUnit.SECONDS);
      await().atMost(Duration.ofSeconds(30)).until(a::leading);
      await().atMost(Duration.ofSeconds(5)).until(a::healthy);
    }
  }

  /**
   * The API server goes down and comes back (every watch closed, every connection dropped): the
   * informers open their watches again, and an annotation change and a deletion made afterwards
   * still reach the operator.
   */
  @Test
  void watchesTheServerDroppedAreOpenedAgainAndChangesStillArrive() throws Exception {
    FluidJob job = job();
    Map<String, String> advisor = new HashMap<>(annotations(Map.of()));
    advisor.put(JobSettings.AUTOSCALING, "advisor");
    deployment("watched", job, advisor, Map.of());
    String uid = OperatorTestSupport.get(kube.admin(), "watched").getMetadata().getUid();
    try (Ds2Operator ds2 = operator(chartServiceAccount())) {
      ds2.start();
      await().atMost(RealKubernetes.PATIENCE).until(() -> ds2.managed() == 1);
      ManagedJob first = ds2.job(uid).orElseThrow();
      kube.restartApiServer();
      kube.admin()
          .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
          .inNamespace(NS)
          .withName("watched")
          .edit(
              r -> {
                r.getMetadata().getAnnotations().put(JobSettings.AUTOSCALING, "enabled");
                return r;
              });
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(() -> ds2.job(uid).map(j -> j != first).orElse(false));
      kube.admin()
          .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
          .inNamespace(NS)
          .withName("watched")
          .delete();
      await().atMost(RealKubernetes.PATIENCE).until(() -> ds2.managed() == 0);
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
