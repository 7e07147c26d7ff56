package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.scaler.RequestResult;
import io.ds2.core.scaler.RescaleOutcome;
import io.ds2.flink.Sleeper;
import io.ds2.loop.Rescales;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes API failing under the overrides patch: a CRUD mock server with injected answers
 * (fabric8's mixed dispatcher: an expectation first, then CRUD). A conflict is re-read and retried
 * a bounded number of times; a server error or a deleted resource is one Failed outcome, never a
 * retry storm and never a crash.
 */
class KubernetesFaultsTest {
  private static final String NAME = "orders";
  private static final String PATH =
      "/apis/flink.apache.org/v1beta1/namespaces/" + OperatorTestSupport.NS + "/flinkdeployments/";
  private static final String WANTED = "a:3,b:4";
  private final AtomicInteger reReads = new AtomicInteger();
  private KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    server = OperatorTestSupport.faultServer();
    client = OperatorTestSupport.fastRetryingClient(server);
    OperatorTestSupport.create(client, NAME, Map.of(), Map.of(), Map.of());
  }

  @AfterEach
  void stop() {
    client.close();
    server.destroy();
  }

  private OverridesActuator actuator(String name) {
    var resource =
        client
            .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
            .inNamespace(OperatorTestSupport.NS)
            .withName(name);
    return new OverridesActuator(
        resource::get,
        () -> {
          reReads.incrementAndGet();
          return resource.get();
        },
        resource,
        null, // never reached: these rescales end at the patch
        Duration.ofMillis(10));
  }

  private static RescaleOutcome rescale(OverridesActuator a, Map<String, Integer> target)
      throws InterruptedException {
    return Rescales.run(a, target, Duration.ofSeconds(5), Clock.systemUTC(), Sleeper.SYSTEM);
  }

  private static Status status(int code, String reason) {
    return new StatusBuilder().withCode(code).withReason(reason).withMessage(reason).build();
  }

  private int patches() throws InterruptedException {
    int n = 0;
    for (var r = server.takeRequest(200, java.util.concurrent.TimeUnit.MILLISECONDS);
        r != null;
        r = server.takeRequest(200, java.util.concurrent.TimeUnit.MILLISECONDS)) {
      n += r.getMethod().equals("PATCH") ? 1 : 0;
    }
    return n;
  }

  private String overrides() {
    GenericKubernetesResource r =
        client
            .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
            .inNamespace(OperatorTestSupport.NS)
            .withName(NAME)
            .get();
    return String.valueOf(FlinkKinds.flinkConfiguration(r).get(FlinkKinds.OVERRIDES));
  }

  @Test
  void aConflictIsReReadAndPatchedOnce() throws Exception {
    server.expect().patch().withPath(PATH + NAME).andReturn(409, status(409, "Conflict")).once();
    actuator(NAME).patch(WANTED);
    assertEquals(WANTED, overrides());
    assertEquals(1, reReads.get(), "one re-read after the conflict");
  }

  @Test
  void persistentConflictsEndInOneFailedOutcome() throws Exception {
    server.expect().patch().withPath(PATH + NAME).andReturn(409, status(409, "Conflict")).always();
    RescaleOutcome o = rescale(actuator(NAME), Map.of("a", 3, "b", 4));
    RescaleOutcome.Failed failed = assertInstanceOf(RescaleOutcome.Failed.class, o);
    assertTrue(failed.message().startsWith("cannot patch " + FlinkKinds.OVERRIDES + ": HTTP 409"));
    assertEquals(5, reReads.get(), "bounded: five re-reads, then it gives up");
    assertEquals("null", overrides());
  }

  /**
   * A 5xx that outlasts the client's retries is no answer, not a refusal: the API server may have
   * applied the patch (etcd slow, a proxy timing out). The resource is read again; the patch did
   * not land, so the request is unanswered: the loop backs off instead of asking again on top.
   */
  @Test
  void aServerErrorIsReReadAndUnansweredNotRefused() throws Exception {
    server.expect().patch().withPath(PATH + NAME).andReturn(500, status(500, "boom")).always();
    RequestResult r = actuator(NAME).request(Map.of("a", 3, "b", 4));
    RequestResult.Unanswered u = assertInstanceOf(RequestResult.Unanswered.class, r);
    assertTrue(u.message().contains("HTTP 500"), u.message());
    assertTrue(u.message().endsWith("the patch may still be applied"), u.message());
    assertEquals(1, reReads.get(), "read once to see whether it applied");
    assertEquals("null", overrides());
  }

  /**
   * The patch lands but its answer is lost (a gateway timing out after the write): the re-read
   * shows the overrides ds2 asked for, so the rescale goes on as accepted instead of failing with
   * the spec changed behind ds2's back. The server holds the written overrides before the PATCH
   * answered 504 arrives (the mock cannot write from inside an answer); ds2 patches from its cached
   * copy, taken before, as from an informer that has not seen the write yet.
   */
  @Test
  void aPatchWhoseAnswerWasLostButThatLandedIsAccepted() throws Exception {
    var kinds =
        client
            .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
            .inNamespace(OperatorTestSupport.NS);
    GenericKubernetesResource cached = kinds.withName(NAME).get();
    GenericKubernetesResource written = kinds.withName(NAME).get();
    written
        .getAdditionalProperties()
        .put("spec", Map.of("flinkConfiguration", Map.of(FlinkKinds.OVERRIDES, WANTED)));
    kinds.resource(written).update();
    server
        .expect()
        .patch()
        .withPath(PATH + NAME)
        .andReturn(504, status(504, "Gateway Timeout"))
        .always();
    var resource = kinds.withName(NAME);
    OverridesActuator a =
        new OverridesActuator(
            () -> cached,
            () -> {
              reReads.incrementAndGet();
              return resource.get();
            },
            resource,
            null,
            Duration.ofMillis(10));
    RequestResult r = a.request(Map.of("a", 3, "b", 4));
    assertEquals(
        Map.of("a", 3, "b", 4), assertInstanceOf(RequestResult.Accepted.class, r).wanted());
    assertEquals(1, reReads.get());
  }

  @Test
  void aResourceDeletedMidLoopIsAFailedRescaleNotACrash() throws Exception {
    client
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(OperatorTestSupport.NS)
        .withName(NAME)
        .delete();
    RescaleOutcome o = rescale(actuator(NAME), Map.of("a", 3));
    assertTrue(
        assertInstanceOf(RescaleOutcome.Failed.class, o).message().contains("deleted"),
        o.toString());
  }
}
