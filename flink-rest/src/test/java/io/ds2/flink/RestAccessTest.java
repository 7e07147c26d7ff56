package io.ds2.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.flink.FlinkRestException.Kind;
import io.ds2.flink.RestAccess.Basic;
import io.ds2.flink.RestAccess.Bearer;
import io.ds2.flink.RestAccess.ClientCertificate;
import io.ds2.flink.RestAccess.EnvSecret;
import io.ds2.flink.RestAccess.FileSecret;
import io.ds2.flink.RestAccess.PemFile;
import io.ds2.flink.dto.JobsOverview;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS with a private CA and client certificates, and credentials that never show. */
class RestAccessTest {
  private static final String TOKEN = "s3cr3t-token-value";
  private static final String OVERVIEW = "{\"jobs\":[]}";
  private final HeldCertificate ca =
      new HeldCertificate.Builder().certificateAuthority(0).commonName("test CA").build();
  private final HeldCertificate serverCert =
      new HeldCertificate.Builder()
          .addSubjectAlternativeName("127.0.0.1")
          .addSubjectAlternativeName("localhost")
          .signedBy(ca)
          .build();
  private final HeldCertificate clientCert =
      new HeldCertificate.Builder().commonName("ds2").signedBy(ca).build();
  private MockWebServer server;
  @TempDir Path dir;

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    HandshakeCertificates serverTls =
        new HandshakeCertificates.Builder()
            .heldCertificate(serverCert)
            .addTrustedCertificate(ca.certificate())
            .build();
    server.useHttps(serverTls.sslSocketFactory(), false);
  }

  @AfterEach
  void stop() throws Exception {
    server.shutdown();
  }

  private URI url() throws Exception {
    server.start(InetAddress.getLoopbackAddress(), 0);
    return URI.create("https://127.0.0.1:" + server.getPort() + "/");
  }

  private Path write(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }

  private FlinkRestClient client(URI url, RestAccess access) {
    return new FlinkRestClient(url, Duration.ofSeconds(2), access);
  }

  @Test
  void aPrivateCaAndABearerTokenFromAFileThatIsReReadEveryCall() throws Exception {
    Path caFile = write("ca.pem", ca.certificatePem());
    Path token = write("token", TOKEN + "\n");
    server.enqueue(new MockResponse().setBody(OVERVIEW));
    server.enqueue(new MockResponse().setBody(OVERVIEW));
    FlinkRestClient client =
        client(
            url(),
            new RestAccess(
                Optional.of(new PemFile(caFile)),
                Optional.empty(),
                Optional.of(new Bearer(new FileSecret(token)))));
    client.get("/jobs/overview", JobsOverview.class);
    assertEquals("Bearer " + TOKEN, server.takeRequest().getHeader("Authorization"));
    Files.writeString(token, "rotated");
    client.get("/jobs/overview", JobsOverview.class);
    assertEquals("Bearer rotated", server.takeRequest().getHeader("Authorization"));
  }

  @Test
  void withoutTheCaTheEndpointIsNotTrusted() throws Exception {
    FlinkRestClient client = client(url(), RestAccess.none());
    FlinkRestException e =
        assertThrows(
            FlinkRestException.class, () -> client.get("/jobs/overview", JobsOverview.class));
    assertEquals(Kind.UNREACHABLE, e.kind());
    assertTrue(
        e.getMessage().startsWith("cannot reach Flink REST API at https://"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }

  @Test
  void mutualTlsSendsTheClientCertificateTheServerRequires() throws Exception {
    server.requireClientAuth();
    URI url = url();
    Path caFile = write("ca.pem", ca.certificatePem());
    Path cert = write("client.pem", clientCert.certificatePem());
    Path key = write("client.key", clientCert.privateKeyPkcs8Pem());
    server.enqueue(new MockResponse().setBody(OVERVIEW));
    client(
            url,
            new RestAccess(
                Optional.of(new PemFile(caFile)),
                Optional.of(new ClientCertificate(new PemFile(cert), new PemFile(key))),
                Optional.empty()))
        .get("/jobs/overview", JobsOverview.class);
    assertEquals(
        "CN=ds2",
        server.takeRequest().getHandshake().peerPrincipal().getName(),
        "the server saw our certificate");
    FlinkRestClient anonymous =
        client(
            url,
            new RestAccess(Optional.of(new PemFile(caFile)), Optional.empty(), Optional.empty()));
    assertEquals(
        Kind.UNREACHABLE,
        assertThrows(
                FlinkRestException.class, () -> anonymous.get("/jobs/overview", JobsOverview.class))
            .kind());
  }

  @Test
  void basicAuthAndNoSecretInAnyMessage() throws Exception {
    Path caFile = write("ca.pem", ca.certificatePem());
    Path userPass = write("basic", "flink:" + TOKEN);
    server.enqueue(new MockResponse().setResponseCode(401).setBody("unauthorized"));
    RestAccess access =
        new RestAccess(
            Optional.of(new PemFile(caFile)),
            Optional.empty(),
            Optional.of(new Basic(new FileSecret(userPass))));
    FlinkRestClient client = client(url(), access);
    FlinkRestException e =
        assertThrows(
            FlinkRestException.class, () -> client.get("/jobs/overview", JobsOverview.class));
    String sent = server.takeRequest().getHeader("Authorization");
    assertEquals(
        "Basic " + Base64.getEncoder().encodeToString(("flink:" + TOKEN).getBytes()), sent);
    assertEquals(Kind.HTTP_STATUS, e.kind());
    for (String shown : new String[] {e.getMessage(), access.toString()}) {
      assertFalse(shown.contains(TOKEN), shown);
      assertFalse(shown.contains(sent.substring(6)), shown);
    }
  }

  @Test
  void unreadableSecretsSayWhereTheyShouldBeAndNotWhatTheyHold() throws Exception {
    Path caFile = write("ca.pem", ca.certificatePem());
    FlinkRestClient fromMissingFile =
        client(
            url(),
            new RestAccess(
                Optional.of(new PemFile(caFile)),
                Optional.empty(),
                Optional.of(new Bearer(new FileSecret(dir.resolve("nope"))))));
    FlinkRestException e =
        assertThrows(
            FlinkRestException.class,
            () -> fromMissingFile.get("/jobs/overview", JobsOverview.class));
    assertTrue(e.getMessage().contains("cannot read file " + dir.resolve("nope")), e.getMessage());
    FlinkRestClient fromMissingEnv =
        client(
            server.url("/").uri(),
            new RestAccess(
                Optional.of(new PemFile(caFile)),
                Optional.empty(),
                Optional.of(new Bearer(new EnvSecret("DS2_TEST_VARIABLE_THAT_IS_NOT_SET")))));
    assertTrue(
        assertThrows(
                FlinkRestException.class,
                () -> fromMissingEnv.get("/jobs/overview", JobsOverview.class))
            .getMessage()
            .contains("environment variable DS2_TEST_VARIABLE_THAT_IS_NOT_SET is not set"));
    assertEquals(0, server.getRequestCount(), "nothing was sent without its credentials");
  }

  @Test
  void badCertificateFilesAndUrlsWithCredentialsAreRefusedNamingTheProblem() throws Exception {
    Path notPem = write("ca.pem", "hello");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                client(
                    URI.create("https://127.0.0.1:1/"),
                    new RestAccess(
                        Optional.of(new PemFile(notPem)), Optional.empty(), Optional.empty())));
    assertEquals(notPem + ": no PEM certificate (-----BEGIN CERTIFICATE-----)", e.getMessage());
    Path cert = write("client.pem", clientCert.certificatePem());
    Path rsaKey =
        write(
            "client.key", "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n");
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    client(
                        URI.create("https://127.0.0.1:1/"),
                        new RestAccess(
                            Optional.empty(),
                            Optional.of(
                                new ClientCertificate(new PemFile(cert), new PemFile(rsaKey))),
                            Optional.empty())))
            .getMessage()
            .contains("openssl pkcs8 -topk8 -nocrypt"));
    String message =
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    client(
                        URI.create("https://flink:" + TOKEN + "@127.0.0.1:1/"), RestAccess.none()))
            .getMessage();
    assertFalse(message.contains(TOKEN), message);
  }
}
