package io.ds2.core.keyed;

/**
 * How Flink spreads a pointwise input (a FORWARD or RESCALE edge) over the consumer's subtasks when
 * producer and consumer run at different parallelisms.
 *
 * <p>Flink connects such an edge pointwise ({@code VertexInputInfoComputationUtils}): with n
 * producers and p ≤ n consumers, consumer j reads producers {@code [j n / p, (j + 1) n / p)}; with
 * p &gt; n, producer i feeds consumers {@code [ceil(i p / n), ceil((i + 1) p / n))} and spreads its
 * records round-robin over them (a FORWARD partitioner at unequal parallelism is replaced by a
 * rebalancing one over the producer's own channels, FLINK-30213). Unless one parallelism divides
 * the other, consumers read unequal numbers of producers: at 11 → 5 one reads three producers, 27 %
 * of the input where DS2 plans 20 %.
 */
public final class Pointwise {
  private Pointwise() {}

  /** The busiest consumer at some parallelism: its subtask, share and the producers it reads. */
  public record Busiest(int subtask, double share, int firstProducer, int lastProducer) {}

  /**
   * Each consumer's share of the input when the producers' output splits as {@code producers} (one
   * share per producer subtask, summing to 1) and the consumer runs at {@code p}.
   */
  public static double[] shares(double[] producers, int p) {
    int n = producers.length;
    double[] result = new double[p];
    if (n >= p) {
      for (int j = 0; j < p; j++) {
        for (int i = firstProducer(j, n, p); i <= lastProducer(j, n, p); i++) {
          result[j] += producers[i];
        }
      }
      return result;
    }
    for (int i = 0; i < n; i++) {
      int from = firstConsumer(i, n, p);
      int to = firstConsumer(i + 1, n, p);
      for (int j = from; j < to; j++) {
        result[j] = producers[i] / (to - from);
      }
    }
    return result;
  }

  /** The consumer with the largest share at {@code p} (the first of equals). */
  public static Busiest busiest(double[] producers, int p) {
    return busiestOf(shares(producers, p), producers.length);
  }

  /** The consumer with the largest of {@code s}, the shares at s.length of n producers. */
  public static Busiest busiestOf(double[] s, int n) {
    int p = s.length;
    int worst = 0;
    for (int j = 1; j < p; j++) {
      worst = s[j] > s[worst] * (1 + 1e-12) ? j : worst; // equal shares sum unequally
    }
    int first = n >= p ? firstProducer(worst, n, p) : producerOf(worst, n, p);
    int last = n >= p ? lastProducer(worst, n, p) : first;
    return new Busiest(worst, s[worst], first, last);
  }

  /**
   * A keyed producer's output split at parallelism {@code n}: what its subtasks were measured to
   * take if it ran at n, else the load of each one's key-group range.
   */
  public static double[] producers(KeyGroupLoad load, int n) {
    var measured = load.measuredAt(n);
    if (measured.isPresent()) {
      return measured.get().shares().clone();
    }
    int m = load.maxParallelism();
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      w[i] = load.shareOf(KeyGroups.first(i, m, n), KeyGroups.last(i, m, n));
    }
    return w;
  }

  /** Even producers: each of {@code n} takes 1/n. */
  public static double[] even(int n) {
    double[] w = new double[n];
    java.util.Arrays.fill(w, 1.0 / n);
    return w;
  }

  static int firstProducer(int j, int n, int p) {
    return (int) ((long) j * n / p);
  }

  static int lastProducer(int j, int n, int p) {
    return (int) ((long) (j + 1) * n / p) - 1;
  }

  private static int firstConsumer(int i, int n, int p) {
    return (int) (((long) i * p + n - 1) / n);
  }

  /** For p &gt; n: the producer feeding consumer {@code j}. */
  private static int producerOf(int j, int n, int p) {
    int i = (int) ((long) j * n / p);
    while (i + 1 < n && firstConsumer(i + 1, n, p) <= j) {
      i++;
    }
    while (i > 0 && firstConsumer(i, n, p) > j) {
      i--;
    }
    return i;
  }
}
