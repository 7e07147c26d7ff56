package io.ds2.core.keyed;

import java.util.Arrays;
import java.util.Optional;

/**
 * What one window says about a keyed vertex's input: the share of it each subtask's key-group range
 * needs, at the parallelism the vertex ran at.
 *
 * <p>An unsaturated subtask's input rate is its demand. A saturated subtask's input rate is its
 * capacity, not its demand, and what it takes depends on where the overflow goes. Before network
 * buffers fill, the writer upstream keeps sending the other subtasks all they need and the overflow
 * queues for the saturated ones: together they need the vertex's demand less what the unsaturated
 * ones took. Once the buffers are full, the writer blocks on the full channel, so every channel
 * carries its share of the throttled rate: the input rates themselves are then the shares. Which of
 * the two holds is told by the writer upstream being back-pressured ({@code throttled}).
 */
public final class SubtaskShares {
  /** Busy fraction from which a subtask counts as saturated (its input is then its capacity). */
  public static final double SATURATED_BUSY = 0.95;

  // A class, not a record: a record's constructor would copy the shares again after every
  // computation here made them afresh (each keyed vertex, each window).
  private final int maxParallelism;
  private final double[] shares;
  private final double costPerRecord;
  private final double records;
  // For a source's splits: the subtask that read each split (null for key groups, whose owners
  // follow from the parallelism).
  private final int[] owners;

  /**
   * @param maxParallelism the vertex's key groups
   * @param shares per subtask (index = subtask), summing to 1
   * @param costPerRecord busy seconds per record over the window: observations made at another cost
   *     describe another job
   * @param records how many records the observation stands for (its weight when averaged with
   *     others at the same parallelism)
   */
  public SubtaskShares(int maxParallelism, double[] shares, double costPerRecord, double records) {
    this(maxParallelism, shares.clone(), costPerRecord, records, null);
  }

  // Takes ownership of {@code shares} and {@code owners}.
  private SubtaskShares(
      int maxParallelism, double[] shares, double costPerRecord, double records, int[] owners) {
    // Key groups: p <= max parallelism. Splits: a source may run more subtasks than splits.
    if (shares.length < 1 || (owners == null && shares.length > maxParallelism)) {
      throw new IllegalArgumentException(
          "parallelism " + shares.length + " outside [1, max parallelism " + maxParallelism + "]");
    }
    if (owners != null && owners.length != maxParallelism) {
      throw new IllegalArgumentException(
          owners.length + " split owners for " + maxParallelism + " splits");
    }
    this.maxParallelism = maxParallelism;
    this.shares = shares;
    this.costPerRecord = costPerRecord;
    this.records = records;
    this.owners = owners;
  }

  /**
   * This observation of a source's splits: {@code owners[s]} is the subtask that read split {@code
   * s} (the units are then splits, {@link #maxParallelism()} of them, not key groups).
   */
  public SubtaskShares withOwners(int[] owners) {
    return new SubtaskShares(maxParallelism, shares, costPerRecord, records, owners.clone());
  }

  /**
   * A source's observation: {@code shares} per subtask (which may outnumber the splits), {@code
   * owners[s]} the subtask that read split {@code s}.
   */
  public static SubtaskShares ofSplits(
      int[] owners, double[] shares, double costPerRecord, double records) {
    return new SubtaskShares(owners.length, shares.clone(), costPerRecord, records, owners.clone());
  }

  /** For a source's splits, the subtask that read each; empty for key groups. */
  public Optional<int[]> owners() {
    return Optional.ofNullable(owners);
  }

  public SubtaskShares(int maxParallelism, double[] shares, double costPerRecord) {
    this(maxParallelism, shares, costPerRecord, 1);
  }

  public int maxParallelism() {
    return maxParallelism;
  }

  /** Per subtask (index = subtask), summing to 1. The array itself: callers do not modify it. */
  public double[] shares() {
    return shares;
  }

  /** Busy seconds per record over the window(s). */
  public double costPerRecord() {
    return costPerRecord;
  }

  /** How many records the observation stands for. */
  public double records() {
    return records;
  }

  public int parallelism() {
    return shares.length;
  }

  /**
   * The largest difference between this observation's and {@code other}'s share of a subtask,
   * relative to an even share (both at the same parallelism).
   */
  public double distance(SubtaskShares other) {
    double worst = 0;
    for (int i = 0; i < shares.length; i++) {
      worst = Math.max(worst, Math.abs(shares[i] - other.shares[i]) * shares.length);
    }
    return worst;
  }

  /**
   * This observation and a newer one at the same parallelism averaged by their records, the older
   * weighing at most {@code memory} times the newer: repeated windows at one parallelism measure
   * the same spread, and averaging them takes the noise of short windows out.
   */
  public SubtaskShares averagedWith(SubtaskShares newer, double memory) {
    double old = Math.min(records, memory * newer.records);
    double total = old + newer.records;
    double[] avg = new double[shares.length];
    for (int i = 0; i < avg.length; i++) {
      avg[i] = (shares[i] * old + newer.shares[i] * newer.records) / total;
    }
    double cost = (costPerRecord * old + newer.costPerRecord * newer.records) / total;
    return new SubtaskShares(maxParallelism, avg, cost, total, newer.owners);
  }

  /**
   * @param inputRates records/s each subtask took in over the window (index = subtask)
   * @param busy each subtask's busy fraction over the window
   * @param demand records/s the whole vertex had to take in over the window (graph walk)
   * @param throttled whether the writer upstream was back-pressured
   * @return empty when the subtasks took nothing
   */
  public static Optional<SubtaskShares> observe(
      int maxParallelism,
      double[] inputRates,
      double[] busy,
      double demand,
      boolean throttled,
      double costPerRecord) {
    return observe(
        maxParallelism, inputRates, busy, demand, throttled, costPerRecord, sum(inputRates));
  }

  /** As above, standing for {@code records} records (the window's). */
  public static Optional<SubtaskShares> observe(
      int maxParallelism,
      double[] inputRates,
      double[] busy,
      double demand,
      boolean throttled,
      double costPerRecord,
      double records) {
    return observe(
        maxParallelism, inputRates, busy, demand, throttled, costPerRecord, records, null);
  }

  /**
   * As above for a source: its subtasks' shares of the source's demand, with the subtask that read
   * each split ({@code owners}, one per split).
   */
  public static Optional<SubtaskShares> observeSplits(
      int[] owners,
      double[] inputRates,
      double[] busy,
      double demand,
      boolean throttled,
      double costPerRecord,
      double records) {
    return observe(
        owners.length, inputRates, busy, demand, throttled, costPerRecord, records, owners.clone());
  }

  private static Optional<SubtaskShares> observe(
      int maxParallelism,
      double[] inputRates,
      double[] busy,
      double demand,
      boolean throttled,
      double costPerRecord,
      double records,
      int[] owners) {
    int p = inputRates.length;
    double[] need = inputRates.clone();
    if (!throttled) {
      double unsaturated = 0;
      double saturatedTook = 0;
      for (int i = 0; i < p; i++) {
        if (busy[i] >= SATURATED_BUSY) {
          saturatedTook += inputRates[i];
        } else {
          unsaturated += inputRates[i];
        }
      }
      double saturatedNeed = Math.max(demand - unsaturated, saturatedTook);
      for (int i = 0; i < p && saturatedTook > 0; i++) {
        if (busy[i] >= SATURATED_BUSY) {
          need[i] = saturatedNeed * inputRates[i] / saturatedTook;
        }
      }
    }
    double total = sum(need);
    if (!(total > 0)) {
      return Optional.empty();
    }
    for (int i = 0; i < p; i++) {
      need[i] /= total;
    }
    return Optional.of(new SubtaskShares(maxParallelism, need, costPerRecord, records, owners));
  }

  // A loop, not a stream: this runs for every keyed vertex in every window.
  private static double sum(double[] values) {
    double total = 0;
    for (double v : values) {
      total += v;
    }
    return total;
  }

  /** The largest share over an even one: 1 when the input spread evenly over the subtasks. */
  public double unevenness() {
    return Arrays.stream(shares).max().orElse(0) * shares.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SubtaskShares s
        && maxParallelism == s.maxParallelism
        && costPerRecord == s.costPerRecord
        && records == s.records
        && Arrays.equals(shares, s.shares)
        && Arrays.equals(owners, s.owners);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(shares) * 31 + maxParallelism;
  }

  @Override
  public String toString() {
    return "SubtaskShares" + Arrays.toString(shares);
  }
}
