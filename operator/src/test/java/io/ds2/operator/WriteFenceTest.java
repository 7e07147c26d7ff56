package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A replica that lost the Lease sends no write, and none it sent is retried into the next leader's
 * term (the operator soak caught a patch of a stopping leader, retried through an API-server
 * outage, landing after the other replica had taken over). The mock server answers with injected
 * 5xx, which the client would otherwise retry.
 */
class WriteFenceTest {
  private static final String PATH =
      "/apis/flink.apache.org/v1beta1/namespaces/" + OperatorTestSupport.NS + "/flinkdeployments/";
  private KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    server = OperatorTestSupport.faultServer();
    client = OperatorTestSupport.fastRetryingClient(server);
    OperatorTestSupport.create(client, "orders", Map.of(), Map.of(), Map.of());
  }

  @AfterEach
  void stop() {
    client.close();
    server.destroy();
  }

  private Resource<GenericKubernetesResource> resource(KubernetesClient c, AtomicBoolean leads) {
    return WriteFence.fenced(
        c.genericKubernetesResources(FlinkKinds.DEPLOYMENT)
            .inNamespace(OperatorTestSupport.NS)
            .withName("orders"),
        leads::get);
  }

  private static final String PATCH = "{\"metadata\":{\"annotations\":{\"a\":\"b\"}}}";

  @Test
  void aReplicaThatNoLongerLeadsSendsNoWriteButStillReads() {
    AtomicBoolean leads = new AtomicBoolean(true);
    Resource<GenericKubernetesResource> r =
        resource(WriteFence.sentOnce(client, WriteFence.WRITE_TIMEOUT), leads);
    r.patch(PatchContext.of(PatchType.JSON_MERGE), PATCH);
    int before = server.getRequestCount();
    leads.set(false);
    assertThrows(
        WriteFence.NotLeading.class, () -> r.patch(PatchContext.of(PatchType.JSON_MERGE), PATCH));
    assertEquals(before, server.getRequestCount(), "the fenced patch never left");
    assertEquals("b", r.get().getMetadata().getAnnotations().get("a"));
  }

  /** The PATCH requests the server received since the last call. */
  private int patches() throws InterruptedException {
    int n = 0;
    for (var q = server.takeRequest(100, java.util.concurrent.TimeUnit.MILLISECONDS);
        q != null;
        q = server.takeRequest(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
      n += q.getMethod().equals("PATCH") ? 1 : 0;
    }
    return n;
  }

  @Test
  void aWriteIsSentOnceNotRetriedLikeTheClientsOtherRequests() throws Exception {
    server
        .expect()
        .patch()
        .withPath(PATH + "orders")
        .andReturn(503, "{\"kind\":\"Status\",\"code\":503}")
        .always();
    patches();
    Resource<GenericKubernetesResource> once =
        resource(WriteFence.sentOnce(client, WriteFence.WRITE_TIMEOUT), new AtomicBoolean(true));
    assertThrows(
        KubernetesClientException.class,
        () -> once.patch(PatchContext.of(PatchType.JSON_MERGE), PATCH));
    assertEquals(1, patches(), "one PATCH, no retry");
    // The client itself still retries (informers, the Lease): 1 + 3.
    assertThrows(
        KubernetesClientException.class,
        () ->
            resource(client, new AtomicBoolean(true))
                .patch(PatchContext.of(PatchType.JSON_MERGE), PATCH));
    assertEquals(4, patches());
  }
}
