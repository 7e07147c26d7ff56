package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.scaler.RequestResult;
import io.ds2.testkit.FluidJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Rescales through the overrides on a real kube-apiserver, as the chart's service account: real
 * conflicts, someone else's overrides, a Flink operator that is busy or never carries a rescale
 * out. Nothing ds2 asked for lingers in a spec, and ds2 never takes its own change for someone
 * else's.
 */
class RescalesOnRealApiServerTest extends RealApiServerBase {
  private static io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource> resource(
      String name) {
    return chartServiceAccount()
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(NS)
        .withName(name);
  }

  /**
   * An actuator working from a copy of {@code name} read before someone else's {@code write}, as
   * from an informer that has not seen it yet; counts its fresh reads.
   */
  private static OverridesActuator staleActuator(
      String name,
      java.util.function.Consumer<GenericKubernetesResource> write,
      AtomicInteger reReads) {
    var resource = resource(name);
    GenericKubernetesResource stale = resource.get();
    kube.admin()
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(NS)
        .withName(name)
        .edit(
            r -> {
              write.accept(r);
              return r;
            });
    return new OverridesActuator(
        () -> stale,
        () -> {
          reReads.incrementAndGet();
          return resource.get();
        },
        resource,
        null,
        Duration.ofMillis(100));
  }

  @Test
  void aWriteInBetweenIsARealConflictAndThePatchIsMadeOnAFreshCopy() {
    FluidJob job = job();
    deployment("conflict", job, Map.of(), Map.of());
    AtomicInteger reReads = new AtomicInteger();
    var resource = resource("conflict");
    OverridesActuator actuator =
        staleActuator(
            "conflict", r -> r.getMetadata().setLabels(Map.of("team", "payments")), reReads);
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

  /**
   * The Flink operator never carries the rescale out (no stand-in reconciles): at the rescale
   * timeout ds2 puts back the overrides it found — an unmet target left in the spec would be
   * deployed by surprise at the next upgrade — and its next request does not take the spec for
   * someone else's change (before, ds2 recorded what it applied only on success).
   */
  @Test
  void anUnmetRescaleIsRolledBackAndNotTakenForSomeoneElsesChange() {
    FluidJob job = job();
    String before = parse(job) + ":1";
    Map<String, String> a = new HashMap<>(annotations(Map.of()));
    a.put(JobSettings.APPLIED, before); // ds2 set Parse to 1 earlier, and it runs so
    a.put("ds2.io/rescale-timeout", "5s");
    a.put("ds2.io/rescale-backoff", "2s");
    deployment("unmet", job, a, Map.of(FlinkKinds.OVERRIDES, before));
    try (Ds2Operator ds2 = operator(chartServiceAccount())) {
      ds2.start();
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(() -> annotationsOf("unmet").containsKey(JobSettings.IN_FLIGHT));
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(
              () ->
                  events("unmet", "ScalingSkipped").stream()
                      .anyMatch(e -> e.getMessage().contains("previous overrides")));
      GenericKubernetesResource r = OperatorTestSupport.get(kube.admin(), "unmet");
      assertEquals(before, FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES));
      assertEquals(before, r.getMetadata().getAnnotations().get(JobSettings.APPLIED));
      assertFalse(r.getMetadata().getAnnotations().containsKey(JobSettings.IN_FLIGHT));
      assertFalse(r.getMetadata().getAnnotations().containsKey(JobSettings.PREVIOUS));
      // After the back-off ds2 decides again: the Flink operator has not reconciled the spec
      // changes (no one plays its part here), so it waits; never an OverridesReverted.
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(
              () ->
                  events("unmet", "ScalingSkipped").stream()
                      .anyMatch(e -> e.getMessage().contains("has not reconciled generation")));
      assertTrue(events("unmet", "OverridesReverted").isEmpty());
    }
    assertEquals(1, job.parallelism().get(parse(job)), "nothing was rescaled");
  }

  /** While the Flink operator upgrades the job, ds2 does not patch on top of it. */
  @Test
  void noPatchWhileTheFlinkOperatorIsBusy() {
    FluidJob job = job();
    Map<String, Object> upgrading = new HashMap<>(StandInFlinkOperator.status(1, job.id()));
    upgrading.put("lifecycleState", "UPGRADING");
    OperatorTestSupport.create(kube.admin(), "busy", annotations(Map.of()), Map.of(), upgrading);
    long generation = OperatorTestSupport.get(kube.admin(), "busy").getMetadata().getGeneration();
    try (Ds2Operator ds2 = operator(chartServiceAccount())) {
      ds2.start();
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(
              () ->
                  events("busy", "ScalingSkipped").stream()
                      .anyMatch(e -> e.getMessage().contains("lifecycle UPGRADING")));
    }
    GenericKubernetesResource r = OperatorTestSupport.get(kube.admin(), "busy");
    assertEquals(generation, r.getMetadata().getGeneration());
    assertFalse(FlinkKinds.flinkConfiguration(r).containsKey(FlinkKinds.OVERRIDES));
  }

  /**
   * GitOps changes the overrides between ds2's read and its patch: the patch gets a real 409, and
   * the fresh copy shows someone else's overrides, so ds2 does not write over them.
   */
  @Test
  void aChangeOfTheOverridesBetweenReadAndPatchIsNotOverwritten() {
    FluidJob job = job();
    String ds2Set = parse(job) + ":2";
    String theirs = parse(job) + ":5";
    deployment(
        "gitops", job, Map.of(JobSettings.APPLIED, ds2Set), Map.of(FlinkKinds.OVERRIDES, ds2Set));
    AtomicInteger reReads = new AtomicInteger();
    var resource = resource("gitops");
    OverridesActuator actuator =
        staleActuator(
            "gitops",
            r -> FlinkKinds.flinkConfiguration(r).put(FlinkKinds.OVERRIDES, theirs),
            reReads);
    RequestResult r = actuator.request(Map.of(parse(job), 4));
    assertInstanceOf(RequestResult.ChangedByOthers.class, r);
    assertEquals(1, reReads.get());
    assertEquals(theirs, FlinkKinds.flinkConfiguration(resource.get()).get(FlinkKinds.OVERRIDES));
  }

  /**
   * The recordings directory cannot hold a file (here it is not a directory; a full disk does the
   * same): the operator records nothing for that job and scales it all the same. Before, the
   * failure ended every start of the job's loop, and the job was never scaled.
   */
  @Test
  void aRecordingThatCannotBeWrittenDoesNotStopScaling() throws Exception {
    FluidJob job = job();
    deployment("unrecorded", job, annotations(Map.of()), Map.of());
    java.nio.file.Path notADirectory = java.nio.file.Files.createTempFile("ds2-recordings", "");
    try (StandInFlinkOperator stand = flinkOperator(job);
        Ds2Operator ds2 = operator(chartServiceAccount()).recordingTo(notADirectory)) {
      ds2.start();
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(
              () ->
                  job.parallelism().get(parse(job)) == 4 && job.parallelism().get(sink(job)) == 3);
    } finally {
      java.nio.file.Files.deleteIfExists(notADirectory);
    }
  }

  /**
   * The Flink operator's own autoscaler is on for a job ds2 would scale (Parse needs 4): ds2 says
   * what it would do and why it does not, and patches nothing.
   */
  @Test
  void withTheBuiltInAutoscalerOnDs2OnlyAdvisesWhatItWouldDo() {
    FluidJob job = job();
    deployment("builtin", job, annotations(Map.of()), Map.of("job.autoscaler.enabled", "true"));
    long generation =
        OperatorTestSupport.get(kube.admin(), "builtin").getMetadata().getGeneration();
    try (StandInFlinkOperator stand = flinkOperator(job);
        Ds2Operator ds2 = operator(chartServiceAccount())) {
      ds2.start();
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(
              () ->
                  events("builtin", "ScalingRecommended").stream()
                      .anyMatch(e -> e.getMessage().contains("Parse 1->4")));
    }
    assertFalse(events("builtin", "ConflictingAutoscaler").isEmpty());
    GenericKubernetesResource r = OperatorTestSupport.get(kube.admin(), "builtin");
    assertEquals(generation, r.getMetadata().getGeneration(), "no patch");
    assertFalse(FlinkKinds.flinkConfiguration(r).containsKey(FlinkKinds.OVERRIDES));
    assertEquals(1, job.parallelism().get(parse(job)));
  }
}
