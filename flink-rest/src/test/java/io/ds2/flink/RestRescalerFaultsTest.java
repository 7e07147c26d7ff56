package io.ds2.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.scaler.RequestResult;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The rescale PUT refused or unanswered: a typed answer, and never a second PUT. */
class RestRescalerFaultsTest {
  private static final String REQUIREMENTS =
      "{\"v1\":{\"parallelism\":{\"lowerBound\":1,\"upperBound\":1}}}";
  private MockWebServer server;
  private RestRescaler rescaler;

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    server.start(InetAddress.getLoopbackAddress(), 0);
    rescaler =
        new RestRescaler(
            new FlinkRestClient(server.url("/").uri(), Duration.ofSeconds(1)),
            "j",
            Duration.ofMillis(10));
  }

  @AfterEach
  void stop() throws Exception {
    server.shutdown();
  }

  private int puts() throws InterruptedException {
    int n = 0;
    for (RecordedRequest r = server.takeRequest(100, TimeUnit.MILLISECONDS);
        r != null;
        r = server.takeRequest(100, TimeUnit.MILLISECONDS)) {
      n += r.getMethod().equals("PUT") ? 1 : 0;
    }
    return n;
  }

  @Test
  void badRequestAndServerErrorAreRefusalsAfterOnePut() throws Exception {
    for (int code : new int[] {400, 500}) {
      server.enqueue(new MockResponse().setBody(REQUIREMENTS));
      server.enqueue(new MockResponse().setResponseCode(code).setBody("{\"errors\":[\"no\"]}"));
      RequestResult o = rescaler.request(Map.of("v1", 3));
      String message = assertInstanceOf(RequestResult.Refused.class, o).message();
      assertTrue(message.startsWith("Flink refused the rescale: PUT "), message);
      assertTrue(message.contains("HTTP " + code), message);
      assertEquals(1, puts());
    }
  }

  @Test
  void anUnansweredPutIsATimeoutAndIsNotRepeated() throws Exception {
    server.enqueue(new MockResponse().setBody(REQUIREMENTS));
    server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
    // Unanswered, not refused: the loop backs off instead of repeating it on top of itself.
    RequestResult o = rescaler.request(Map.of("v1", 3));
    String message = assertInstanceOf(RequestResult.Unanswered.class, o).message();
    assertTrue(message.startsWith("Flink REST API did not answer PUT "), message);
    assertEquals(1, puts());
  }
}
