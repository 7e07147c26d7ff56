package io.ds2.workloads;

import java.io.Serializable;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/**
 * Which key each record of a keyed operator carries, as a function of the record's value (the
 * sources emit consecutive numbers), and the share of records each key group then gets under
 * Flink's own assignment ({@link KeyGroupRangeAssignment}): the truth an oracle must size for.
 */
public sealed interface KeyDistribution extends Serializable {
  /** The key of the record with value {@code value}. */
  long keyOf(long value);

  /** The share of records in each of {@code maxParallelism} key groups, summing to 1. */
  double[] keyGroupShares(int maxParallelism);

  /** Keys {@code 0 .. keys-1} in turn: every key equally often (the word count's words). */
  record Cyclic(int keys) implements KeyDistribution {
    @Override
    public long keyOf(long value) {
      return Math.floorMod(value, keys);
    }

    @Override
    public double[] keyGroupShares(int maxParallelism) {
      double[] shares = new double[maxParallelism];
      for (long k = 0; k < keys; k++) {
        shares[KeyGroupRangeAssignment.assignToKeyGroup(k, maxParallelism)] += 1.0 / keys;
      }
      return shares;
    }
  }

  /**
   * Natural ids {@code 1 .. ids} with Zipf popularity: id k carries a share proportional to {@code
   * 1 / k^exponent} (users, items, URLs). The id of a record is drawn by inverting the cumulative
   * shares at a hash of its value, so it is a pure function of the value (restores replay it).
   */
  record Zipf(int ids, double exponent) implements KeyDistribution {
    public Zipf {
      if (ids < 1 || !(exponent >= 0)) {
        throw new IllegalArgumentException("zipf needs ids >= 1 and exponent >= 0");
      }
    }

    @Override
    public long keyOf(long value) {
      double[] cdf = Cdfs.of(this);
      double u = (mix(value) >>> 11) * 0x1.0p-53;
      int lo = 0;
      int hi = cdf.length - 1;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (cdf[mid] < u) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo + 1L;
    }

    @Override
    public double[] keyGroupShares(int maxParallelism) {
      double[] shares = new double[maxParallelism];
      double[] w = weights();
      for (int k = 0; k < ids; k++) {
        shares[KeyGroupRangeAssignment.assignToKeyGroup((long) k + 1, maxParallelism)] += w[k];
      }
      return shares;
    }

    /** Share of id k+1 at index k. */
    double[] weights() {
      double[] w = new double[ids];
      double sum = 0;
      for (int k = 0; k < ids; k++) {
        w[k] = 1 / Math.pow(k + 1, exponent);
        sum += w[k];
      }
      for (int k = 0; k < ids; k++) {
        w[k] /= sum;
      }
      return w;
    }

    private static long mix(long z) {
      z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
      z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
      return z ^ (z >>> 31);
    }
  }

  /** Cumulative shares per distribution, computed once per JVM (not serialized with the job). */
  final class Cdfs {
    private static final java.util.Map<Zipf, double[]> CACHE =
        new java.util.concurrent.ConcurrentHashMap<>();

    private Cdfs() {}

    static double[] of(Zipf z) {
      return CACHE.computeIfAbsent(
          z,
          d -> {
            double[] w = d.weights();
            double[] cdf = new double[w.length];
            double sum = 0;
            for (int k = 0; k < w.length; k++) {
              sum += w[k];
              cdf[k] = sum;
            }
            cdf[w.length - 1] = 1;
            return cdf;
          });
    }
  }
}
