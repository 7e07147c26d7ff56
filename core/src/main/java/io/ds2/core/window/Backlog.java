package io.ds2.core.window;

import java.util.OptionalDouble;

/**
 * A source's backlog ({@code pendingRecords}) over a window, in records read (records emitted for a
 * source that does not count reads).
 *
 * @param pendingAtEnd records waiting at the end of the window
 * @param growthPerSecond least-squares slope of the backlog over the window (negative while
 *     catching up)
 * @param arrivalRate least-squares slope of (records read + backlog): the rate records arrive at
 *     the source. Both terms come from the same metric refresh, so their sum is consistent even
 *     though the refresh time itself is only known to within a poll interval. Fitted over the
 *     window and, where the earlier readings of the same run agree with it, over those too ({@code
 *     arrivalSpanSeconds}).
 * @param points how many readings of the window were fitted
 * @param spanSeconds the time between the first and last reading of the window
 * @param earlyArrivalRate the arrival rate fitted over the first half of the window only, if it has
 *     {@value #MIN_POINTS_PER_HALF} readings or more
 * @param lateArrivalRate the same over the second half: a load change inside the window shows as
 *     early and late rates that differ
 * @param arrivalSpanSeconds the time the arrival rate was fitted over: the window's span, or more
 *     where readings from before the window were taken in
 * @param shiftTolerance records/s by which the two halves may differ from the gauge's noise alone:
 *     twice the largest distance of a half's readings from its own fitted line, over each half's
 *     span (0 where the halves are not both fitted)
 * @param earlierRunSeconds of {@code arrivalSpanSeconds}, the seconds fitted before the job last
 *     restarted (a rescale): taken in where the first window of a run and the last one before it
 *     saw the same load (0 otherwise)
 * @param headsHidden the gauge stood still while the source read, then jumped ({@link
 *     HiddenHeads}): its consumer holds fetched records the gauge does not count, and the arrival
 *     rate is about what the source read, whatever arrives
 */
public record Backlog(
    double pendingAtEnd,
    double growthPerSecond,
    double arrivalRate,
    int points,
    double spanSeconds,
    OptionalDouble earlyArrivalRate,
    OptionalDouble lateArrivalRate,
    double arrivalSpanSeconds,
    double shiftTolerance,
    double earlierRunSeconds,
    boolean headsHidden) {
  /** Readings a half-window needs before its own slope is trusted. */
  public static final int MIN_POINTS_PER_HALF = 3;

  /**
   * Two arrival rates closer than this fraction of the larger are the same load: halves of a steady
   * window agree to within a percent where the backlog gauge is fresh; a load step differs by far
   * more.
   */
  public static final double STEADY_TOLERANCE = 0.1;

  /**
   * This backlog with its arrival rate averaged with one fitted before the job's last restart,
   * weighted by the seconds each was fitted over.
   */
  public Backlog withEarlierRun(double rate, double seconds) {
    double total = arrivalSpanSeconds + seconds;
    return new Backlog(
        pendingAtEnd,
        growthPerSecond,
        (arrivalRate * arrivalSpanSeconds + rate * seconds) / total,
        points,
        spanSeconds,
        earlyArrivalRate,
        lateArrivalRate,
        total,
        shiftTolerance,
        seconds,
        headsHidden);
  }

  /** A backlog fitted over the window only, its halves as given. */
  public Backlog(
      double pendingAtEnd,
      double growthPerSecond,
      double arrivalRate,
      int points,
      double spanSeconds,
      OptionalDouble earlyArrivalRate,
      OptionalDouble lateArrivalRate) {
    this(
        pendingAtEnd,
        growthPerSecond,
        arrivalRate,
        points,
        spanSeconds,
        earlyArrivalRate,
        lateArrivalRate,
        spanSeconds,
        0,
        0,
        false);
  }

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
