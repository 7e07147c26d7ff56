package io.ds2.model.window;

import java.util.OptionalDouble;

/**
 * A source's backlog ({@code pendingRecords}) over a window, in the source vertex's output records:
 * where the vertex counts records read and emits a different number (a filter chained to the
 * source), unread records are converted by its measured output per read record.
 *
 * @param pendingAtEnd records waiting at the end of the window
 * @param growthPerSecond least-squares slope of the backlog (negative while catching up)
 * @param arrivalRate least-squares slope of (records emitted + backlog): the rate records arrive at
 *     the source. Both terms come from the same metric refresh, so their sum is consistent even
 *     though the refresh time itself is only known to within a poll interval.
 * @param points how many readings the slopes were fitted to
 * @param spanSeconds the time between the first and last reading fitted
 * @param earlyArrivalRate the arrival rate fitted over the first half of the span only, if it has
 *     {@value #MIN_POINTS_PER_HALF} readings or more
 * @param lateArrivalRate the same over the second half: a load change inside the window shows as
 *     early and late rates that differ
 */
public record Backlog(
    double pendingAtEnd,
    double growthPerSecond,
    double arrivalRate,
    int points,
    double spanSeconds,
    OptionalDouble earlyArrivalRate,
    OptionalDouble lateArrivalRate) {
  /** Readings a half-window needs before its own slope is trusted. */
  public static final int MIN_POINTS_PER_HALF = 3;

  /** A backlog fitted over the whole window only. */
  public Backlog(
      double pendingAtEnd,
      double growthPerSecond,
      double arrivalRate,
      int points,
      double spanSeconds) {
    this(
        pendingAtEnd,
        growthPerSecond,
        arrivalRate,
        points,
        spanSeconds,
        OptionalDouble.empty(),
        OptionalDouble.empty());
  }
}
