package io.ds2.flink;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.ds2.flink.FlinkRestException.Kind;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;

/**
 * A small, strict-about-failure HTTP client for Flink's REST API. Every call is bounded by the
 * timeout; a 503 (JobManager leader election at start-up) is retried a few times; every failure
 * becomes one {@link FlinkRestException} naming the URL.
 */
public final class FlinkRestClient {
  /**
   * Whether failure messages quote what the endpoint answered: the CLI's user reads them about
   * their own endpoint; the operator's messages become Kubernetes events that whoever can read the
   * namespace sees, so there they say what was wrong and never what came back.
   */
  public enum ResponseText {
    QUOTED,
    WITHHELD
  }

  /**
   * The largest answer read. A job's details grow by ~1 KiB a vertex, so a real answer stays far
   * below; anything larger is not Flink, and one process polls many jobs.
   */
  public static final long MAX_RESPONSE_BYTES = 16L << 20;

  private static final MediaType JSON = MediaType.get("application/json");
  private static final int EXCERPT_CHARS = 200;
  private static final int RETRIES_ON_503 = 5;
  private static final Duration RETRY_PAUSE = Duration.ofMillis(500);
  // Every client derives from one: an operator's clients (one per managed job) share a connection
  // pool and OkHttp's threads instead of each holding its own.
  private static final OkHttpClient SHARED = new OkHttpClient();

  private final HttpUrl base;
  private final OkHttpClient http;
  private final Duration timeout;
  private final ObjectMapper mapper;
  private final ResponseText responseText;

  public FlinkRestClient(URI baseUrl, Duration timeout) {
    this(baseUrl, timeout, RestAccess.none());
  }

  public FlinkRestClient(URI baseUrl, Duration timeout, RestAccess access) {
    this(baseUrl, timeout, access, ResponseText.QUOTED);
  }

  /**
   * @throws IllegalArgumentException if the URL is not http(s), carries credentials, or a file
   *     named by {@code access} cannot be used (the message names it)
   */
  public FlinkRestClient(
      URI baseUrl, Duration timeout, RestAccess access, ResponseText responseText) {
    this.responseText = responseText;
    HttpUrl parsed = HttpUrl.parse(baseUrl.toString());
    if (parsed == null) {
      throw new IllegalArgumentException("not an http(s) URL: " + baseUrl);
    }
    if (!parsed.username().isEmpty() || !parsed.password().isEmpty()) {
      // It would show in every message that names a URL; credentials have their own options.
      throw new IllegalArgumentException(
          "the Flink URL must not carry credentials (user:password@); pass them from a file or"
              + " an environment variable");
    }
    this.base = parsed;
    this.timeout = timeout;
    this.http =
        access
            .configure(
                SHARED
                    .newBuilder()
                    .connectTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .readTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .callTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .retryOnConnectionFailure(false))
            .build();
    // Lenient: Flink adds fields across versions and may write NaN as a bare token.
    this.mapper =
        JsonMapper.builder()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();
  }

  public URI baseUrl() {
    return base.uri();
  }

  /** Connections held open to Flink now (idle and in use), for health and soak figures. */
  public int openConnections() {
    return http.connectionPool().connectionCount();
  }

  public ObjectMapper mapper() {
    return mapper;
  }

  /** GETs {@code path} (with query) and maps the JSON body to {@code type}. */
  public <T> T get(String path, Class<T> type) {
    return get(path, mapper.getTypeFactory().constructType(type));
  }

  public <T> T get(String path, JavaType type) {
    HttpUrl url = resolve(path);
    String body = call(new Request.Builder().url(url).get().build());
    return parse(url, "GET", body, type);
  }

  /** PUTs a JSON body to {@code path} and returns the response body (Flink answers {@code {}}). */
  public String put(String path, Object body) {
    HttpUrl url = resolve(path);
    String json;
    try {
      json = mapper.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot serialize request body", e);
    }
    return call(new Request.Builder().url(url).put(RequestBody.create(json, JSON)).build());
  }

  // Appends to the base URL's path, so a base behind a proxy prefix (/flink/) keeps it.
  private HttpUrl resolve(String pathAndQuery) {
    String p = pathAndQuery.startsWith("/") ? pathAndQuery.substring(1) : pathAndQuery;
    int q = p.indexOf('?');
    HttpUrl.Builder b = base.newBuilder().addPathSegments(q < 0 ? p : p.substring(0, q));
    if (q >= 0) {
      b.encodedQuery(p.substring(q + 1));
    }
    return b.build();
  }

  private String call(Request request) {
    for (int attempt = 0; ; attempt++) {
      try (Response response = http.newCall(request).execute()) {
        String text = read(request, response.body());
        if (response.code() == 503 && attempt < RETRIES_ON_503) {
          pause();
          continue;
        }
        if (!response.isSuccessful()) {
          throw FlinkRestException.httpStatus(
              response.code(),
              request.method()
                  + " "
                  + request.url()
                  + " returned HTTP "
                  + response.code()
                  + excerpt(text));
        }
        return text;
      } catch (InterruptedIOException e) {
        throw new FlinkRestException(
            Kind.TIMEOUT,
            "Flink REST API did not answer "
                + request.method()
                + " "
                + request.url()
                + " within "
                + timeout.toMillis() / 1000.0
                + " s",
            e);
      } catch (IOException e) {
        throw new FlinkRestException(
            Kind.UNREACHABLE,
            "cannot reach Flink REST API at " + request.url() + ": " + oneLine(e.getMessage()),
            e);
      }
    }
  }

  private String read(Request request, ResponseBody body) throws IOException {
    if (body == null) {
      return "";
    }
    BufferedSource source = body.source();
    if (body.contentLength() > MAX_RESPONSE_BYTES || source.request(MAX_RESPONSE_BYTES + 1)) {
      throw new FlinkRestException(
          Kind.MALFORMED_RESPONSE,
          request.method()
              + " "
              + request.url()
              + " answered more than "
              + (MAX_RESPONSE_BYTES >> 20)
              + " MiB; not reading it (no Flink answer is that large)");
    }
    return source.readUtf8();
  }

  private <T> T parse(HttpUrl url, String method, String body, JavaType type) {
    try {
      T value = mapper.readValue(body, type);
      if (value == null) {
        throw new FlinkRestException(
            Kind.MALFORMED_RESPONSE, method + " " + url + " returned an empty body");
      }
      return value;
    } catch (JsonProcessingException e) {
      throw new FlinkRestException(
          Kind.MALFORMED_RESPONSE,
          method
              + " "
              + url
              + " returned malformed JSON ("
              + oneLine(e.getOriginalMessage())
              + ")"
              + excerpt(body),
          e);
    }
  }

  private static void pause() {
    try {
      Thread.sleep(RETRY_PAUSE.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FlinkRestException(Kind.TIMEOUT, "interrupted while waiting for Flink", e);
    }
  }

  private String excerpt(String body) {
    return responseText == ResponseText.QUOTED ? quoted(body) : "";
  }

  static String quoted(String body) {
    String flat = oneLine(body).strip();
    if (flat.isEmpty()) {
      return "";
    }
    return ": " + (flat.length() > EXCERPT_CHARS ? flat.substring(0, EXCERPT_CHARS) + "..." : flat);
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replaceAll("\\s+", " ");
  }
}
