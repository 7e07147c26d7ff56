package io.ds2.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.flink.FlinkRestException.Kind;
import io.ds2.flink.dto.JobsOverview;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every malformed answer becomes one typed, one-line error naming the URL. */
class FlinkRestClientTest {
  private MockWebServer server;
  private FlinkRestClient client;

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    server.start(InetAddress.getLoopbackAddress(), 0);
    client = new FlinkRestClient(server.url("/").uri(), Duration.ofSeconds(2));
  }

  @AfterEach
  void stop() throws Exception {
    server.shutdown();
  }

  private FlinkRestException fails(Kind kind) {
    FlinkRestException e =
        assertThrows(
            FlinkRestException.class, () -> client.get("/jobs/overview", JobsOverview.class));
    assertEquals(kind, e.kind(), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), "one line: " + e.getMessage());
    return e;
  }

  @Test
  void htmlErrorPageIsAnHttpStatusWithAnExcerpt() {
    server.enqueue(
        new MockResponse()
            .setResponseCode(500)
            .setBody("<html>\n<body>\n<h1>Internal   Server Error</h1></body></html>"));
    FlinkRestException e = fails(Kind.HTTP_STATUS);
    assertEquals(
        "GET "
            + server.url("/jobs/overview")
            + " returned HTTP 500: <html> <body> <h1>Internal"
            + " Server Error</h1></body></html>",
        e.getMessage());
  }

  @Test
  void withheldResponsesSayWhatWasWrongButNotWhatCameBack() {
    client =
        new FlinkRestClient(
            server.url("/").uri(),
            Duration.ofSeconds(2),
            RestAccess.none(),
            FlinkRestClient.ResponseText.WITHHELD);
    server.enqueue(new MockResponse().setResponseCode(403).setBody("internal-admin-secret"));
    assertEquals(
        "GET " + server.url("/jobs/overview") + " returned HTTP 403",
        fails(Kind.HTTP_STATUS).getMessage());
    server.enqueue(new MockResponse().setBody("<html>internal-admin-secret</html>"));
    String m = fails(Kind.MALFORMED_RESPONSE).getMessage();
    assertTrue(!m.contains("internal-admin-secret"), m);
  }

  @Test
  void anAnswerAboveTheCapIsNotReadWhetherItsLengthIsDeclaredOrNot() {
    okio.Buffer big = new okio.Buffer();
    byte[] mib = new byte[1 << 20];
    java.util.Arrays.fill(mib, (byte) ' ');
    for (long i = 0; i <= FlinkRestClient.MAX_RESPONSE_BYTES >> 20; i++) {
      big.write(mib);
    }
    server.enqueue(new MockResponse().setBody(big.clone()));
    assertTrue(fails(Kind.MALFORMED_RESPONSE).getMessage().contains("answered more than 16 MiB"));
    server.enqueue(new MockResponse().setChunkedBody(big, 1 << 20));
    assertTrue(fails(Kind.MALFORMED_RESPONSE).getMessage().contains("answered more than 16 MiB"));
  }

  @Test
  void nonJsonIsMalformed() {
    server.enqueue(new MockResponse().setBody("<html>proxy login</html>"));
    FlinkRestException e = fails(Kind.MALFORMED_RESPONSE);
    assertTrue(
        e.getMessage()
            .startsWith("GET " + server.url("/jobs/overview") + " returned malformed JSON"),
        e.getMessage());
  }

  @Test
  void truncatedJsonIsMalformed() {
    server.enqueue(new MockResponse().setBody("{\"jobs\":[{\"jid\":\"abc\",\"na"));
    fails(Kind.MALFORMED_RESPONSE);
  }

  @Test
  void emptyBodyIsMalformed() {
    server.enqueue(new MockResponse().setBody(""));
    fails(Kind.MALFORMED_RESPONSE);
  }

  @Test
  void serverThatNeverAnswersTimesOutWithinTheTimeout() {
    server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
    long start = System.nanoTime();
    FlinkRestException e = fails(Kind.TIMEOUT);
    double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(seconds < 10, "bounded by the 2 s timeout, took " + seconds);
    assertTrue(e.getMessage().contains("within 2.0 s"), e.getMessage());
  }

  @Test
  void unreachableEndpointSaysSo() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    client =
        new FlinkRestClient(URI.create("http://127.0.0.1:" + closedPort), Duration.ofSeconds(2));
    FlinkRestException e = fails(Kind.UNREACHABLE);
    assertTrue(
        e.getMessage().startsWith("cannot reach Flink REST API at http://127.0.0.1:" + closedPort),
        e.getMessage());
  }

  @Test
  void leaderElection503IsRetried() throws Exception {
    server.enqueue(
        new MockResponse()
            .setResponseCode(503)
            .setBody(
                "{\"errors\":[\"Service temporarily unavailable due to an ongoing leader election.\"]}"));
    server.enqueue(new MockResponse().setBody("{\"jobs\":[]}"));
    assertEquals(0, client.get("/jobs/overview", JobsOverview.class).jobs().size());
    assertEquals(2, server.getRequestCount());
  }

  @Test
  void persistent503GivesUp() {
    for (int i = 0; i < 6; i++) {
      server.enqueue(new MockResponse().setResponseCode(503).setBody("{}"));
    }
    fails(Kind.HTTP_STATUS);
  }

  @Test
  void unknownFieldsAreIgnoredAndAPathPrefixIsKept() throws Exception {
    client = new FlinkRestClient(server.url("/flink/").uri(), Duration.ofSeconds(2));
    server.enqueue(
        new MockResponse()
            .setBody(
                "{\"jobs\":[{\"jid\":\"a\",\"name\":\"n\",\"state\":\"RUNNING\",\"new-field\":{\"x\":1}}],\"more\":true}"));
    assertEquals("a", client.get("/jobs/overview", JobsOverview.class).jobs().get(0).jid());
    assertEquals("/flink/jobs/overview", server.takeRequest(1, TimeUnit.SECONDS).getPath());
  }
}
