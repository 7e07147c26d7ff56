package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.commandline.ExitCodes;
import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Malformed REST answers end {@code ds2 recommend} with exit 1 and one line naming the URL and the
 * problem, within the configured timeout, and never with a recommendation.
 */
class RecommendFailuresTest {
  private static final String OVERVIEW =
      "{\"jobs\":[{\"jid\":\"j\",\"name\":\"job\",\"state\":\"RUNNING\"}]}";
  private static final String DETAILS =
      "{\"jid\":\"j\",\"name\":\"job\",\"state\":\"RUNNING\",\"timestamps\":{\"RUNNING\":1000},"
          + "\"vertices\":[{\"id\":\"s\",\"name\":\"Source: S\",\"parallelism\":1,\"maxParallelism\":128,\"status\":\"RUNNING\"},"
          + "{\"id\":\"w\",\"name\":\"Work\",\"parallelism\":1,\"maxParallelism\":128,\"status\":\"RUNNING\"}],"
          + "\"plan\":{\"nodes\":[{\"id\":\"s\"},{\"id\":\"w\",\"inputs\":[{\"num\":0,\"id\":\"s\",\"ship_strategy\":\"HASH\"}]}]}}";
  private static final String NAMES =
      "[{\"id\":\"numRecordsIn\"},{\"id\":\"numRecordsOut\"},{\"id\":\"accumulateBusyTimeMs\"},"
          + "{\"id\":\"accumulateIdleTimeMs\"},{\"id\":\"accumulateBackPressuredTimeMs\"}]";

  private final Map<String, MockResponse> routes = new ConcurrentHashMap<>();
  private MockWebServer server;

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest r) {
            MockResponse m = routes.get(r.getPath().split("\\?")[0]);
            return m != null ? m : new MockResponse().setResponseCode(404).setBody("{}");
          }
        });
    server.start(InetAddress.getLoopbackAddress(), 0);
    routes.put("/jobs/overview", json(OVERVIEW));
    routes.put("/jobs/j", json(DETAILS));
    routes.put("/jobs/j/metrics", json("[{\"id\":\"numRestarts\",\"value\":\"0\"}]"));
    routes.put("/jobs/j/vertices/s/subtasks/metrics", json(NAMES));
    routes.put("/jobs/j/vertices/w/subtasks/metrics", json(NAMES));
    routes.put(
        "/jobs/j/vertices/s/metrics",
        json(
            "[{\"id\":\"0.numRecordsOut\",\"value\":\"100\"},{\"id\":\"0.numRecordsIn\",\"value\":\"0\"}]"));
  }

  @AfterEach
  void stop() throws Exception {
    server.shutdown();
  }

  private static MockResponse json(String body) {
    return new MockResponse().setBody(body).setHeader("Content-Type", "application/json");
  }

  private CliRun recommend() {
    return CliRun.of(
        "recommend",
        "--flink-url",
        server.url("/").toString(),
        "--timeout",
        "2s",
        "--window",
        "1s",
        "--warm-up",
        "0s",
        "--sample-interval",
        "100ms");
  }

  private void failsWith(String expectedStart) {
    long start = System.nanoTime();
    CliRun r = recommend();
    double seconds = (System.nanoTime() - start) / 1e9;
    assertEquals(ExitCodes.RUNTIME, r.exitCode(), r.err());
    assertEquals(1, r.errLines().length, r.err());
    assertTrue(r.errLines()[0].startsWith(expectedStart), r.errLines()[0]);
    assertEquals("", r.out(), "no recommendation printed");
    assertTrue(seconds < 15, "bounded wait, took " + seconds + " s");
  }

  @Test
  void htmlServerError() {
    routes.put(
        "/jobs/overview",
        new MockResponse().setResponseCode(500).setBody("<html><body>Oops</body></html>"));
    failsWith("ds2 recommend: GET " + server.url("/jobs/overview") + " returned HTTP 500: <html>");
  }

  @Test
  void nonJson() {
    routes.put("/jobs/j", new MockResponse().setBody("this is not json"));
    failsWith("ds2 recommend: GET " + server.url("/jobs/j") + " returned malformed JSON");
  }

  @Test
  void truncatedJson() {
    routes.put("/jobs/j", json(DETAILS.substring(0, DETAILS.length() / 2)));
    failsWith("ds2 recommend: GET " + server.url("/jobs/j") + " returned malformed JSON");
  }

  @Test
  void nanMetricsNeverBecomeARecommendation() {
    routes.put(
        "/jobs/j/vertices/w/metrics",
        json(
            "[{\"id\":\"0.numRecordsIn\",\"value\":\"10\"},{\"id\":\"0.numRecordsOut\",\"value\":\"10\"},"
                + "{\"id\":\"0.accumulateBusyTimeMs\",\"value\":\"NaN\"}]"));
    failsWith(
        "ds2 recommend: no clean 1 s metrics window within 3 s: accumulateBusyTimeMs of vertex"
            + " Work subtask 0 is missing or NaN");
  }

  @Test
  void serverThatNeverAnswers() {
    routes.put("/jobs/overview", new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
    failsWith(
        "ds2 recommend: Flink REST API did not answer GET "
            + server.url("/jobs/overview")
            + " within 2.0 s");
  }

  @Test
  void unknownSourceVertexIsUsage() {
    CliRun r =
        CliRun.of(
            "recommend", "--flink-url", server.url("/").toString(), "--source-rate", "Work=100");
    assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
    assertEquals(
        "ds2 recommend: --source-rate: 'Work' is not a source vertex of the job; sources:"
            + " 'Source: S' (s)",
        r.errLines()[0]);
  }

  @Test
  void aSplitCountThatIsNoCountIsUsage() {
    CliRun r =
        CliRun.of(
            "recommend",
            "--flink-url",
            server.url("/").toString(),
            "--source-splits",
            "Source: S=zero");
    assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
    assertEquals(
        "ds2 recommend: --source-splits: 'zero' for 'Source: S' is not a split count (a whole"
            + " number >= 1)",
        r.errLines()[0]);
    CliRun notASource =
        CliRun.of(
            "recommend", "--flink-url", server.url("/").toString(), "--source-splits", "Work=4");
    assertEquals(ExitCodes.USAGE, notASource.exitCode(), notASource.err());
    assertTrue(notASource.errLines()[0].contains("--source-splits: 'Work' is not a source"));
  }
}
