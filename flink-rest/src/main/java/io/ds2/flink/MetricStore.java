package io.ds2.flink;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Flink's REST metric store as one poller sees it. The JobManager refreshes the store lazily: a
 * REST request arriving more than {@code metrics.fetcher.update-interval} after the last refresh
 * starts a new one (asynchronously), and that request itself, and any sent right after it, still
 * read the previous values. Polled naively, every reading is one poll old, and a poll whose
 * requests straddle the refresh reads some vertices from each.
 *
 * <p>So the sampler reads <em>prime-then-read</em>: its job-details request asks for the refresh,
 * and when that request was due to start one, it waits {@link #settle} for the new values to land
 * before reading metrics. A recorder that wants every reading fresh also waits, before priming,
 * until a refresh is due ({@link #untilRefreshDue}).
 */
public final class MetricStore {
  /** Flink's default {@code metrics.fetcher.update-interval}. */
  static final Duration FLINK_DEFAULT_REFRESH = Duration.ofSeconds(10);

  static final String REFRESH_KEY = "metrics.fetcher.update-interval";

  // Our clock and the JobManager's differ by the request's latency; these keep the guesses on the
  // safe side: wait for a refresh that may have started, prime only when one surely will.
  private static final Duration MAY_HAVE_STARTED = Duration.ofMillis(50);
  private static final Duration SURELY_DUE = Duration.ofMillis(100);

  private static final Pattern DURATION =
      Pattern.compile(
          "(\\d+)\\s*(ms|milli|millis|s|sec|secs|second|seconds|min|mins|minute|minutes)?");

  private final Duration refresh;
  private final Duration settle;
  private Instant lastPrime;

  /**
   * @param refresh how often Flink refreshes its store ({@code 0} disables refreshing)
   */
  public MetricStore(Duration refresh) {
    this.refresh = refresh;
    // A refresh asks every TaskManager for its metrics: milliseconds on one host, more across a
    // cluster. A tenth of the interval, within [100 ms, 1 s], is generous for both.
    long ms = Math.max(100, Math.min(1000, refresh.toMillis() / 10));
    this.settle = Duration.ofMillis(ms);
  }

  /** The refresh interval from the cluster's configuration; Flink's default if it does not say. */
  static MetricStore discover(FlinkRestClient client) {
    return new MetricStore(refreshInterval(client).orElse(FLINK_DEFAULT_REFRESH));
  }

  private static Optional<Duration> refreshInterval(FlinkRestClient client) {
    JavaType entries =
        client.mapper().getTypeFactory().constructCollectionType(List.class, JsonNode.class);
    List<JsonNode> config;
    try {
      config = client.get("/jobmanager/config", entries);
    } catch (FlinkRestException e) {
      return Optional.empty(); // older or restricted endpoints: assume Flink's default
    }
    return config.stream()
        .filter(n -> n != null && REFRESH_KEY.equals(n.path("key").asText()))
        .map(n -> n.path("value").asText())
        .findFirst()
        .flatMap(MetricStore::parse);
  }

  /** Flink's duration syntax as this option is written: {@code 10000} (ms), {@code 10 s}, ... */
  static Optional<Duration> parse(String text) {
    Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      return Optional.empty();
    }
    long n;
    try {
      n = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    String unit = m.group(2) == null ? "ms" : m.group(2);
    if (unit.startsWith("mi") && !unit.startsWith("mil")) {
      return Optional.of(Duration.ofMinutes(n));
    }
    return Optional.of(unit.startsWith("m") ? Duration.ofMillis(n) : Duration.ofSeconds(n));
  }

  public Duration refresh() {
    return refresh;
  }

  /**
   * Notes a request sent at {@code sentAt} that asks Flink to refresh its store (any metrics or
   * job-details request does), and says how long to wait before reading: the settle time if this
   * request, or one just before it, may have started a refresh; zero otherwise.
   */
  synchronized Duration primed(Instant sentAt) {
    if (lastPrime == null
        || Duration.between(lastPrime, sentAt).compareTo(refresh.minus(MAY_HAVE_STARTED)) > 0) {
      lastPrime = sentAt;
      return settle;
    }
    Duration left = Duration.between(sentAt, lastPrime.plus(settle));
    return left.isNegative() ? Duration.ZERO : left;
  }

  /** How long to wait from {@code now} until a request surely starts a new refresh. */
  synchronized Duration untilRefreshDue(Instant now) {
    if (lastPrime == null) {
      return Duration.ZERO;
    }
    Duration left = Duration.between(now, lastPrime.plus(refresh).plus(SURELY_DUE));
    return left.isNegative() ? Duration.ZERO : left;
  }
}
