package io.ds2.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.forecast.DemandHistory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The sources' demand history the forecast learns from, in the annotation {@code
 * ds2.io/demand-history}: a controller that restarts (or a new leader) forecasts from the days
 * already seen instead of waiting two periods again.
 *
 * <p>Per source, the index of its newest complete bucket and its means, oldest first, as 32-bit
 * floats (a rate to seven digits; NaN where nothing was measured), gzipped and in base64: two weeks
 * of 5-minute buckets are 16 KiB a source before compression. Kubernetes allows 256 KiB of
 * annotations per object; this one is kept under {@value #MAX_CHARS} characters by dropping every
 * source's oldest day first, down to what a forecast needs ({@link #write}'s {@code keepAtLeast});
 * a history that does not fit even then is not written, and the caller says so.
 */
final class DemandHistoryAnnotation {
  static final String KEY = JobSettings.PREFIX + "demand-history";
  static final int MAX_CHARS = 128 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  private DemandHistoryAnnotation() {}

  /**
   * The annotation's value, or empty if even {@code keepAtLeast} steps per source do not fit.
   *
   * @param dropStep how many of the oldest steps to drop per round (a day's)
   * @param keepAtLeast fewest steps per source worth keeping (what a forecast needs)
   */
  static Optional<String> write(DemandHistory.Snapshot snapshot, int dropStep, int keepAtLeast) {
    Map<String, DemandHistory.Saved> kept = new LinkedHashMap<>(snapshot.sources());
    String text = render(snapshot.bucket(), kept);
    while (text.length() > MAX_CHARS) {
      boolean dropped = false;
      for (Map.Entry<String, DemandHistory.Saved> e : kept.entrySet()) {
        double[] means = e.getValue().means();
        int keep = Math.max(keepAtLeast, means.length - dropStep);
        if (keep < means.length) {
          e.setValue(
              new DemandHistory.Saved(
                  e.getValue().newest(),
                  java.util.Arrays.copyOfRange(means, means.length - keep, means.length)));
          dropped = true;
        }
      }
      if (!dropped) {
        return Optional.empty();
      }
      text = render(snapshot.bucket(), kept);
    }
    return Optional.of(text);
  }

  private static String render(Duration bucket, Map<String, DemandHistory.Saved> sources) {
    ObjectNode root = JSON.createObjectNode();
    root.put("bucketSeconds", bucket.toSeconds());
    ObjectNode bySource = root.putObject("sources");
    sources.forEach(
        (source, saved) ->
            bySource
                .putObject(source)
                .put("newest", saved.newest())
                .put("means", encode(saved.means())));
    return root.toString();
  }

  private static String encode(double[] means) {
    ByteBuffer raw = ByteBuffer.allocate(4 * means.length).order(ByteOrder.LITTLE_ENDIAN);
    for (double m : means) {
      raw.putFloat((float) m);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(raw.array());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // in memory: does not happen
    }
    return Base64.getEncoder().encodeToString(out.toByteArray());
  }

  /** Nothing to restore when absent; unreadable (to be reported, then ignored) when malformed. */
  static Optional<StateAnnotation.Read<DemandHistory.Snapshot>> read(
      Map<String, String> annotations) {
    return StateAnnotation.read(
        annotations,
        KEY,
        DemandHistoryAnnotation::parse,
        "the forecast learns the sources' demand anew, and forecasts after two periods");
  }

  private static DemandHistory.Snapshot parse(JsonNode root) throws StateAnnotation.Malformed {
    if (!root.isObject()
        || !root.path("bucketSeconds").canConvertToLong()
        || root.get("bucketSeconds").asLong() <= 0
        || !root.path("sources").isObject()) {
      throw new StateAnnotation.Malformed("not an object with bucketSeconds and sources");
    }
    Map<String, DemandHistory.Saved> sources = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.get("sources").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode s = e.getValue();
      if (!s.path("newest").canConvertToLong() || !s.path("means").isTextual()) {
        throw new StateAnnotation.Malformed("source " + e.getKey() + " has no newest and means");
      }
      double[] means =
          decode(s.get("means").asText())
              .orElseThrow(
                  () ->
                      new StateAnnotation.Malformed(
                          "the means of source " + e.getKey() + " do not decode"));
      sources.put(e.getKey(), new DemandHistory.Saved(s.get("newest").asLong(), means));
    }
    return new DemandHistory.Snapshot(
        Duration.ofSeconds(root.get("bucketSeconds").asLong()), sources);
  }

  private static Optional<double[]> decode(String text) {
    try (GZIPInputStream gz =
        new GZIPInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
      // A bound on what is read: no annotation holds more than this many means.
      byte[] raw = gz.readNBytes(4 * MAX_CHARS * 8);
      if (raw.length % 4 != 0 || gz.read() != -1) {
        return Optional.empty();
      }
      ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
      double[] means = new double[raw.length / 4];
      for (int i = 0; i < means.length; i++) {
        float f = b.getFloat();
        if (!Float.isNaN(f) && !(f >= 0 && Float.isFinite(f))) {
          return Optional.empty(); // a rate is never negative or infinite: not written by ds2
        }
        means[i] = f;
      }
      return Optional.of(means);
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
