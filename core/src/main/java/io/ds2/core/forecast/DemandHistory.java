package io.ds2.core.forecast;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Each source vertex's demand over time, bounded: the mean arrival rate per bucket (a minute, five
 * minutes) for the last {@code capacity} buckets (14 days), in a ring per source. Fixed size
 * whatever the uptime; what a forecast learns from ({@link SeasonalForecaster}). Time is given,
 * never read.
 *
 * <p>A rate measured over an interval (a window) counts in every bucket the interval overlaps, by
 * the time it overlaps: a bucket's mean is then the time-weighted rate over the bucket's own
 * minutes, the same every day whenever the windows happen to start. Counted at the decision's
 * instant instead, each bucket held the rates of windows that began up to a window before it: a
 * ramp was learnt half a window late, and by a different share each day.
 */
public final class DemandHistory {
  private final Duration bucket;
  private final int capacity;
  private final Map<String, Ring> bySource = new LinkedHashMap<>();

  /**
   * @param bucket how long a step of the series is
   * @param capacity how many steps are kept per source
   */
  public DemandHistory(Duration bucket, int capacity) {
    if (bucket.isNegative() || bucket.isZero() || capacity < 1) {
      throw new IllegalArgumentException(
          "a positive bucket and capacity; was " + bucket + ", " + capacity);
    }
    this.bucket = bucket;
    this.capacity = capacity;
  }

  public Duration bucket() {
    return bucket;
  }

  public int capacity() {
    return capacity;
  }

  public Set<String> sources() {
    return bySource.keySet();
  }

  /** Adds a measured arrival rate (records/s) at {@code source} at {@code at}, as one sample. */
  public void add(String source, Instant at, double rate) {
    if (!Double.isFinite(rate) || rate < 0) {
      return; // never learn from what is not a measurement
    }
    bySource.computeIfAbsent(source, s -> new Ring(capacity)).add(index(at), rate, 1);
  }

  /**
   * Adds the arrival rate (records/s) measured at {@code source} over [{@code from}, {@code to}):
   * to each bucket it overlaps, weighted by the seconds it overlaps (a sample a second).
   */
  public void add(String source, Instant from, Instant to, double rate) {
    if (!Double.isFinite(rate) || rate < 0 || !to.isAfter(from)) {
      return; // never learn from what is not a measurement
    }
    Ring ring = bySource.computeIfAbsent(source, s -> new Ring(capacity));
    long step = bucket.toMillis();
    for (long i = index(from); i <= index(to.minusMillis(1)); i++) {
      long overlap =
          Math.min(to.toEpochMilli(), (i + 1) * step) - Math.max(from.toEpochMilli(), i * step);
      ring.add(i, rate, overlap / 1e3);
    }
  }

  /**
   * The source's series of complete buckets before the one {@code now} is in, oldest first, NaN
   * where nothing was measured; at most {@code capacity} steps, empty if never measured.
   */
  public double[] series(String source, Instant now) {
    Ring r = bySource.get(source);
    return r == null ? new double[0] : r.series(index(now));
  }

  /** When the bucket of {@code now} began (the next series step starts then). */
  public Instant bucketStart(Instant now) {
    return Instant.ofEpochMilli(index(now) * bucket.toMillis());
  }

  private long index(Instant t) {
    return Math.floorDiv(t.toEpochMilli(), bucket.toMillis());
  }

  /** A saved copy: per source, the index of its newest bucket and the means, NaN for gaps. */
  public Map<String, Saved> save() {
    Map<String, Saved> out = new LinkedHashMap<>();
    bySource.forEach((s, r) -> r.saved().ifPresent(v -> out.put(s, v)));
    return out;
  }

  /** Continues from a saved copy (a restarted or new leader); steps beyond capacity dropped. */
  public void restore(Map<String, Saved> saved) {
    saved.forEach(
        (source, v) -> {
          Ring r = new Ring(capacity);
          double[] means = v.means();
          int from = Math.max(0, means.length - capacity);
          for (int i = from; i < means.length; i++) {
            if (!Double.isNaN(means[i])) {
              // A whole bucket's worth of samples: what is added later weighs as it did before.
              r.add(v.newest() - (means.length - 1 - i), means[i], bucket.toMillis() / 1e3);
            }
          }
          bySource.put(source, r);
        });
  }

  /**
   * @param newest the bucket index of the last mean
   * @param means oldest first
   */
  public record Saved(long newest, double[] means) {}

  /**
   * What a controller taking over needs: every source's complete buckets (each source's newest is
   * left out: it may still be filling, and leaving it out keeps a saved copy unchanged between
   * buckets, so a store writes it once a bucket), and the bucket length they count in.
   */
  public record Snapshot(Duration bucket, Map<String, Saved> sources) {
    public static final Snapshot EMPTY = new Snapshot(Duration.ZERO, Map.of());
  }

  /** This history's complete buckets, per source (see {@link Snapshot}). */
  public Snapshot snapshot() {
    Map<String, Saved> complete = new LinkedHashMap<>();
    save()
        .forEach(
            (source, v) -> {
              if (v.means().length > 1) {
                complete.put(
                    source,
                    new Saved(
                        v.newest() - 1, java.util.Arrays.copyOf(v.means(), v.means().length - 1)));
              }
            });
    return new Snapshot(bucket, complete);
  }

  /**
   * Continues from a snapshot if it counts in this history's buckets; else (the bucket option
   * changed) nothing is restored.
   *
   * @return whether it was restored
   */
  public boolean restore(Snapshot snapshot) {
    if (!snapshot.bucket().equals(bucket)) {
      return false;
    }
    restore(snapshot.sources());
    return true;
  }

  /** One source's buckets: weighted sums and weights, the newest at {@code newest}. */
  private static final class Ring {
    private final double[] sum;
    private final double[] count;
    private long newest = Long.MIN_VALUE;

    Ring(int capacity) {
      sum = new double[capacity];
      count = new double[capacity];
    }

    void add(long index, double rate, double weight) {
      if (newest != Long.MIN_VALUE && index <= newest - sum.length) {
        return; // older than what is kept
      }
      if (newest == Long.MIN_VALUE || index > newest) {
        // Clear the buckets between the newest and this one (none were measured).
        long clear = newest == Long.MIN_VALUE ? sum.length : Math.min(sum.length, index - newest);
        for (long i = 0; i < clear; i++) {
          int k = slot(index - i);
          sum[k] = 0;
          count[k] = 0;
        }
        newest = index;
      }
      int k = slot(index);
      sum[k] += rate * weight;
      count[k] += weight;
    }

    double[] series(long current) {
      if (newest == Long.MIN_VALUE) {
        return new double[0];
      }
      long last = current - 1; // complete buckets only
      long first = Math.max(oldest(), last - sum.length + 1);
      if (last < first) {
        return new double[0];
      }
      double[] out = new double[(int) (last - first + 1)];
      for (long i = first; i <= last; i++) {
        out[(int) (i - first)] = mean(i);
      }
      return out;
    }

    Optional<Saved> saved() {
      if (newest == Long.MIN_VALUE) {
        return Optional.empty();
      }
      long first = oldest();
      double[] means = new double[(int) (newest - first + 1)];
      for (long i = first; i <= newest; i++) {
        means[(int) (i - first)] = mean(i);
      }
      return Optional.of(new Saved(newest, means));
    }

    /** The oldest bucket with a measurement still kept. */
    private long oldest() {
      for (long i = newest - sum.length + 1; i < newest; i++) {
        if (count[slot(i)] > 0) {
          return i;
        }
      }
      return newest;
    }

    private double mean(long i) {
      if (i > newest || i <= newest - sum.length) {
        return Double.NaN;
      }
      int k = slot(i);
      return count[k] == 0 ? Double.NaN : sum[k] / count[k];
    }

    private int slot(long i) {
      return (int) Math.floorMod(i, (long) sum.length);
    }
  }

  @Override
  public String toString() {
    return "DemandHistory(" + bucket + " x " + capacity + ", " + bySource.keySet() + ")";
  }
}
