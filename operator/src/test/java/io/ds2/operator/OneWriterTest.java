package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.options.Ds2Options;
import io.ds2.testkit.FakeJob;
import io.ds2.testkit.FluidJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * No two loops per resource, ever: while rescales are in flight, the job's annotations change (each
 * change restarts its loop) and leadership moves between two operator instances, and the job never
 * sees two calls at once (each call takes 120 ms, so a step is nearly always in progress when the
 * loop is stopped). The job is the shared fluid test double, so the operator's own path runs
 * (informer, scheduler, state store) without Flink.
 */
@EnableKubernetesMockClient(crud = true)
class OneWriterTest {
  KubernetesMockServer server;
  KubernetesClient client;

  private final FakeJob job =
      new FakeJob(
              "job",
              Clock.systemUTC(),
              300,
              List.of(
                  new FluidJob.Stage("s", "Source: In", 0, 1),
                  new FluidJob.Stage("p", "Parse", 0.0111, 1),
                  new FluidJob.Stage("k", "Sink", 0.008, 0)))
          .restartTakes(Duration.ofSeconds(2))
          .callsTake(Duration.ofMillis(120));
  private final AtomicInteger opened = new AtomicInteger();

  private LeaderElectedOperator instance(String id) {
    return new LeaderElectedOperator(
        client,
        () ->
            new Ds2Operator(
                    client,
                    List.of(OperatorTestSupport.NS),
                    Ds2Options.defaults(),
                    new EventRecorder(client, Clock.systemUTC(), Duration.ofMinutes(30)),
                    new OperatorMetrics())
                .withEnds(
                    (r, settings, current, resource) -> {
                      opened.incrementAndGet();
                      return new JobEnds.Opened(job, job, Optional.empty(), () -> {});
                    }),
        new LeaderElectedOperator.Lease(
            OperatorTestSupport.NS,
            "ds2-leader",
            id,
            Duration.ofSeconds(3),
            Duration.ofSeconds(2),
            Duration.ofMillis(250)));
  }

  private void annotate(String window) {
    GenericKubernetesResource r = OperatorTestSupport.get(client, "one");
    Map<String, String> a = new HashMap<>(r.getMetadata().getAnnotations());
    a.put("ds2.io/window", window);
    r.getMetadata().setAnnotations(a);
    r.getMetadata().setResourceVersion(null);
    client
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(OperatorTestSupport.NS)
        .resource(r)
        .update();
  }

  @Test
  void annotationChangesAndLeaderHandoversDuringRescalesNeverMakeTwoWriters() throws Exception {
    OperatorTestSupport.registerKinds(server);
    Map<String, String> annotations = new HashMap<>();
    annotations.put(JobSettings.AUTOSCALING, "enabled");
    annotations.put("ds2.io/window", "2s");
    annotations.put("ds2.io/warm-up", "0s");
    annotations.put("ds2.io/sample-interval", "200ms");
    annotations.put("ds2.io/activation", "1");
    annotations.put("ds2.io/scale-down-delay", "0s");
    OperatorTestSupport.create(client, "one", annotations, Map.of(), Map.of());
    LeaderElectedOperator a = instance("a");
    LeaderElectedOperator b = instance("b");
    a.start();
    await().atMost(Duration.ofSeconds(10)).until(a::leading);
    b.start();
    for (int round = 0; round < 6; round++) {
      // The load moves, so a rescale comes; it is in flight for 2 s, and then the loop starts over
      // (new settings) or the leader hands over.
      int before = job.requests();
      job.fluid().demand(round % 2 == 0 ? 600 : 300);
      await().atMost(Duration.ofSeconds(30)).until(() -> job.requests() > before);
      if (round % 2 == 0) {
        annotate(round % 4 == 0 ? "3s" : "2s");
      } else {
        LeaderElectedOperator leader = a.leading() ? a : b;
        LeaderElectedOperator standby = leader == a ? b : a;
        leader.close();
        await().atMost(Duration.ofSeconds(15)).until(standby::leading);
        LeaderElectedOperator fresh = instance("r" + round);
        fresh.start();
        if (leader == a) {
          a = fresh;
        } else {
          b = fresh;
        }
      }
    }
    // The last new leader found the job already there: its loop starts within the first window.
    await().atMost(Duration.ofSeconds(15)).until(() -> opened.get() >= 7);
    a.close();
    b.close();
    assertTrue(job.requests() >= 6, job.requests() + " rescales requested");
    assertTrue(opened.get() >= 7, opened.get() + " loops started");
    assertEquals(1, job.mostConcurrentCalls(), "one writer at a time");
  }
}
