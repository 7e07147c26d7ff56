package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which REST URLs an annotation may name: the job's own Service, or what the allowlist admits. */
class FlinkEndpointsTest {
  private static final FlinkEndpoints OWN = FlinkEndpoints.ownServicesOnly();

  private static URI admit(FlinkEndpoints e, String url) throws JobSettings.Invalid {
    return e.admit(url, "orders", "team-a");
  }

  private static String refused(FlinkEndpoints e, String url) {
    return assertThrows(JobSettings.Invalid.class, () -> admit(e, url)).getMessage();
  }

  @Test
  void theJobsOwnRestServiceByAnyOfItsClusterNamesAndAnyPortOrScheme() throws Exception {
    for (String url :
        List.of(
            "http://orders-rest.team-a:8081",
            "https://orders-rest.team-a.svc:8443/",
            "http://ORDERS-rest.team-a.svc.cluster.local:8081/prefix")) {
      assertEquals(URI.create(url), admit(OWN, url));
    }
  }

  @Test
  void anyOtherHostIsRefusedNamingTheAnnotationAndWhatWouldAdmitIt() {
    for (String url :
        List.of(
            "http://127.0.0.1:9249",
            "http://orders-rest.team-b:8081",
            "http://other-rest.team-a:8081",
            "http://orders-rest.team-a.svc.cluster.local.evil.example:8081",
            "http://metadata.google.internal/computeMetadata/v1/")) {
      String m = refused(OWN, url);
      assertTrue(m.startsWith("annotation ds2.io/flink-rest-url: '" + url + "' is neither"), m);
      assertTrue(m.contains("orders-rest.team-a"), m);
      assertTrue(m.contains("flinkAccess.allowedRestUrls"), m);
    }
  }

  @Test
  void anAllowlistPrefixAdmitsItsHostPortAndPathOnly() throws Exception {
    FlinkEndpoints e =
        new FlinkEndpoints(
            List.of(
                URI.create("https://gateway.flink.example/team-a"),
                URI.create("http://10.1.2.3:8081")),
            Optional.empty());
    admit(e, "https://gateway.flink.example/team-a");
    admit(e, "https://gateway.flink.example:443/team-a/orders/");
    admit(e, "http://10.1.2.3:8081/");
    refused(e, "https://gateway.flink.example/team-ab/orders");
    refused(e, "https://gateway.flink.example/team-b/");
    refused(e, "https://gateway.flink.example/team-a/../team-b/");
    refused(e, "https://gateway.flink.example/team-a/%2e%2e/team-b/");
    refused(e, "http://gateway.flink.example/team-a");
    refused(e, "http://10.1.2.3:8082/");
  }

  @Test
  void urlsWithCredentialsOrNotHttpAreRefused() {
    String m = refused(OWN, "http://u:s3cret@orders-rest.team-a:8081");
    assertEquals(
        "annotation ds2.io/flink-rest-url: 'http://***@orders-rest.team-a:8081' carries"
            + " credentials; they come from the namespace's Secret",
        m);
    assertTrue(refused(OWN, "file:///etc/passwd").endsWith("is not an http(s) URL"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> new FlinkEndpoints(List.of(URI.create("ftp://x")), Optional.empty()))
            .getMessage()
            .contains("is not an http(s) URL prefix"));
  }
}
