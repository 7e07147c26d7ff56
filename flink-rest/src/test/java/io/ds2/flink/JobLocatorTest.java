package io.ds2.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ds2.flink.FlinkRestException.Kind;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JobLocatorTest {
  private static final String JOBS =
      "{\"jobs\":["
          + "{\"jid\":\"a1\",\"name\":\"orders\",\"state\":\"RUNNING\"},"
          + "{\"jid\":\"b2\",\"name\":\"payments\",\"state\":\"RUNNING\"},"
          + "{\"jid\":\"c3\",\"name\":\"old\",\"state\":\"CANCELED\"}]}";
  private MockWebServer server;
  private JobLocator locator;

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    server.start(InetAddress.getLoopbackAddress(), 0);
    locator = new JobLocator(new FlinkRestClient(server.url("/").uri(), Duration.ofSeconds(2)));
  }

  @AfterEach
  void stop() throws Exception {
    server.shutdown();
  }

  @Test
  void findsByIdOrName() {
    server.enqueue(new MockResponse().setBody(JOBS));
    server.enqueue(new MockResponse().setBody(JOBS));
    assertEquals("b2", locator.locate(Optional.of("b2")).jid());
    assertEquals("a1", locator.locate(Optional.of("orders")).jid());
  }

  @Test
  void severalRunningJobsNeedAChoiceAndAreListed() {
    server.enqueue(new MockResponse().setBody(JOBS));
    FlinkRestException e =
        assertThrows(FlinkRestException.class, () -> locator.locate(Optional.empty()));
    assertEquals(Kind.JOB_AMBIGUOUS, e.kind());
    assertEquals(
        "2 running jobs at "
            + server.url("/")
            + "; choose one with --job: a1 (orders, RUNNING),"
            + " b2 (payments, RUNNING)",
        e.getMessage());
  }

  @Test
  void theOnlyRunningJobIsTheDefault() {
    server.enqueue(
        new MockResponse()
            .setBody(
                "{\"jobs\":[{\"jid\":\"a1\",\"name\":\"x\",\"state\":\"RUNNING\"},"
                    + "{\"jid\":\"c3\",\"name\":\"old\",\"state\":\"FAILED\"}]}"));
    assertEquals("a1", locator.locate(Optional.empty()).jid());
  }

  @Test
  void notRunningAndMissingJobsAreNamed() {
    server.enqueue(new MockResponse().setBody(JOBS));
    FlinkRestException e =
        assertThrows(FlinkRestException.class, () -> locator.locate(Optional.of("c3")));
    assertEquals(Kind.JOB_NOT_RUNNING, e.kind());
    assertEquals("job c3 (old, CANCELED) is not RUNNING", e.getMessage());
    server.enqueue(new MockResponse().setBody(JOBS));
    e = assertThrows(FlinkRestException.class, () -> locator.locate(Optional.of("nope")));
    assertEquals(Kind.JOB_NOT_FOUND, e.kind());
    server.enqueue(new MockResponse().setBody("{\"jobs\":[]}"));
    e = assertThrows(FlinkRestException.class, () -> locator.locate(Optional.empty()));
    assertEquals("no running job at " + server.url("/"), e.getMessage());
  }
}
