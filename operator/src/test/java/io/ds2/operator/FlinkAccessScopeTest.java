package io.ds2.operator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.options.Ds2Options;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.InetAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Whoever may annotate a FlinkDeployment cannot point ds2 and its credentials at another host: the
 * operator runs as the chart's service account on a real kube-apiserver, with the namespace's
 * credentials in a Secret the chart names; endpoints are HTTP servers that record what reaches
 * them.
 */
@Tag("kube-apiserver")
class FlinkAccessScopeTest {
  private static final String NS = OperatorTestSupport.NS;
  private static final String RELEASE_NS = "ds2-system";
  private static final String SECRET = "flink-rest";
  private static final String TOKEN = "team-a-flink-token";
  private static final String JOB = "0000000000000000000000000000000a";
  private static RealKubernetes kube;
  private static KubernetesClient sa;
  private final HeldCertificate ca =
      new HeldCertificate.Builder().certificateAuthority(0).commonName("team CA").build();
  private MockWebServer https;
  private MockWebServer http;

  @BeforeAll
  static void start() throws Exception {
    kube = RealKubernetes.shared();
    kube.namespaces(NS, RELEASE_NS);
    kube.installFlinkCrds();
    sa =
        kube.clientAs(
            RELEASE_NS,
            ChartRbac.apply(
                kube.admin(),
                "ds2",
                RELEASE_NS,
                Map.of("flinkAccess.credentialsSecret", SECRET),
                null));
  }

  @AfterEach
  void cleanUp() throws Exception {
    kube.admin().genericKubernetesResources(FlinkKinds.DEPLOYMENT).inNamespace(NS).delete();
    kube.admin().secrets().inNamespace(NS).delete();
    for (MockWebServer s : new MockWebServer[] {https, http}) {
      if (s != null) {
        s.shutdown();
      }
    }
  }

  /** An endpoint that answers every call with a 500: only what reaches it matters here. */
  private static MockWebServer endpoint(HandshakeCertificates tls) throws Exception {
    MockWebServer s = new MockWebServer();
    if (tls != null) {
      s.useHttps(tls.sslSocketFactory(), false);
    }
    s.setDispatcher(
        new okhttp3.mockwebserver.Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest r) {
            return new MockResponse().setResponseCode(500).setBody("internal detail");
          }
        });
    s.start(InetAddress.getLoopbackAddress(), 0);
    return s;
  }

  private void startEndpoints() throws Exception {
    HeldCertificate server =
        new HeldCertificate.Builder()
            .addSubjectAlternativeName("127.0.0.1")
            .addSubjectAlternativeName("localhost")
            .signedBy(ca)
            .build();
    https = endpoint(new HandshakeCertificates.Builder().heldCertificate(server).build());
    http = endpoint(null);
  }

  private void secret(Map<String, String> data) {
    kube.admin()
        .secrets()
        .inNamespace(NS)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(SECRET)
                .endMetadata()
                .withStringData(data)
                .build())
        .create();
  }

  private static void deployment(String name, String restUrl) {
    OperatorTestSupport.create(
        kube.admin(),
        name,
        // A short window: a loop found at start begins within its first window.
        Map.of(
            JobSettings.AUTOSCALING,
            "enabled",
            JobSettings.REST_URL,
            restUrl,
            "ds2.io/window",
            "4s",
            "ds2.io/sample-interval",
            "500ms"),
        Map.of(),
        StandInFlinkOperator.status(1, JOB));
  }

  private static Ds2Operator operator(URI... allowed) {
    return new Ds2Operator(
            sa,
            List.of(NS),
            Ds2Options.defaults(),
            new EventRecorder(sa, Clock.systemUTC(), Duration.ofMinutes(30)),
            new OperatorMetrics())
        .withEndpoints(new FlinkEndpoints(List.of(allowed), Optional.of(SECRET)));
  }

  private static List<Event> events(String name, String reason) {
    return kube.admin().v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .filter(e -> reason.equals(e.getReason()))
        .toList();
  }

  @Test
  void anAnnotationNamingAnyOtherHostIsRefusedAndNothingReachesIt() throws Exception {
    startEndpoints();
    secret(Map.of("token", TOKEN));
    String elsewhere = http.url("/").toString();
    deployment("probe", elsewhere);
    try (Ds2Operator ds2 = operator()) {
      ds2.start();
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(() -> !events("probe", "InvalidAnnotation").isEmpty());
      assertEquals(0, ds2.managed());
    }
    String message = events("probe", "InvalidAnnotation").get(0).getMessage();
    assertTrue(message.contains("is neither this job's own REST Service"), message);
    assertEquals(0, http.getRequestCount(), "no request reached the annotated host");
  }

  @Test
  void theNamespacesCredentialsGoOverHttpsOnlyAndNoAnswerShowsInEvents() throws Exception {
    startEndpoints();
    secret(Map.of("token", TOKEN, "ca.crt", ca.certificatePem()));
    URI secure = https.url("/").uri();
    URI plain = http.url("/").uri();
    deployment("secure", secure.toString());
    deployment("plain", plain.toString());
    try (Ds2Operator ds2 = operator(secure, plain)) {
      ds2.start();
      await()
          .atMost(RealKubernetes.PATIENCE)
          .failFast(
              "a Warning on the secure job instead",
              () -> !events("secure", "MetricsNotReady").isEmpty() && https.getRequestCount() == 0)
          .until(() -> https.getRequestCount() > 0);
      assertEquals("Bearer " + TOKEN, https.takeRequest().getHeader("Authorization"));
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(() -> !events("plain", "FlinkAccessRefused").isEmpty());
      await()
          .atMost(RealKubernetes.PATIENCE)
          .until(() -> !events("secure", "MetricsNotReady").isEmpty());
    }
    assertEquals(0, http.getRequestCount(), "credentials are never offered over http");
    String refused = events("plain", "FlinkAccessRefused").get(0).getMessage();
    assertTrue(
        refused.startsWith(
            "Secret " + NS + "/" + SECRET + " holds credentials, which ds2 sends only over https"),
        refused);
    String failed = events("secure", "MetricsNotReady").get(0).getMessage();
    assertTrue(failed.contains("returned HTTP 500"), failed);
    assertTrue(!failed.contains("internal detail"), "no response body in an event: " + failed);
  }

  @Test
  void theChartLetsTheServiceAccountReadThatOneSecretAndNoOther() {
    secret(Map.of("token", TOKEN));
    kube.admin()
        .secrets()
        .inNamespace(NS)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("database")
                .endMetadata()
                .withStringData(Map.of("password", "x"))
                .build())
        .create();
    assertEquals(
        SECRET, sa.secrets().inNamespace(NS).withName(SECRET).get().getMetadata().getName());
    for (Runnable forbidden :
        List.<Runnable>of(
            () -> sa.secrets().inNamespace(NS).withName("database").get(),
            () -> sa.secrets().inNamespace(NS).list())) {
      try {
        forbidden.run();
        throw new AssertionError("the service account read more than its one Secret");
      } catch (KubernetesClientException e) {
        assertEquals(403, e.getCode(), e.getMessage());
      }
    }
  }
}
