package io.ds2.model.window;

/**
 * A source's backlog ({@code pendingRecords}) over a window.
 *
 * @param pendingAtEnd records waiting at the end of the window
 * @param growthPerSecond least-squares slope of the backlog (negative while catching up)
 * @param arrivalRate least-squares slope of (records emitted + backlog): the rate records arrive at
 *     the source. Both terms come from the same metric refresh, so their sum is consistent even
 *     though the refresh time itself is only known to within a poll interval.
 * @param points how many readings the slopes were fitted to
 * @param spanSeconds the time between the first and last reading fitted
 */
public record Backlog(
    double pendingAtEnd,
    double growthPerSecond,
    double arrivalRate,
    int points,
    double spanSeconds) {}
