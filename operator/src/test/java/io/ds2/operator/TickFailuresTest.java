package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.testkit.FakeJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Whatever a tick throws, the job's loop goes on: an {@link Error} from a library (here a class
 * that cannot be loaded) is one failed tick, and the loop starts over a window later and scales the
 * job, instead of ending silently and for good.
 */
@EnableKubernetesMockClient(crud = true)
class TickFailuresTest {
  KubernetesMockServer server;
  KubernetesClient client;

  @Test
  void anErrorInATickStartsTheLoopOverInsteadOfEndingIt() {
    OperatorTestSupport.registerKinds(server);
    OperatorTestSupport.create(
        client,
        "orders",
        Map.of(
            JobSettings.AUTOSCALING,
            "advisor",
            "ds2.io/window",
            "2s",
            "ds2.io/warm-up",
            "0s",
            "ds2.io/sample-interval",
            "200ms"),
        Map.of(),
        Map.of());
    FakeJob job = OperatorTestSupport.fakeJob();
    AtomicInteger opened = new AtomicInteger();
    try (Ds2Operator ds2 =
        OperatorTestSupport.operator(
            client,
            (r, settings, current, resource) -> {
              if (opened.incrementAndGet() == 1) {
                throw new NoClassDefFoundError("org/example/Gone");
              }
              return new JobEnds.Opened(job, job, Optional.empty(), () -> {});
            })) {
      ds2.start();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> !OperatorTestSupport.events(client, "ScalingRecommended").isEmpty());
    }
    assertTrue(opened.get() >= 2, "the loop was set up again after the Error");
  }
}
