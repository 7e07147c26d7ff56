package io.ds2.model.window;

/**
 * A source's backlog ({@code pendingRecords}) over a window.
 *
 * @param pendingAtEnd records waiting at the end of the window
 * @param growthPerSecond least-squares slope of the backlog over the window (negative while
 *     catching up)
 * @param points how many distinct backlog readings the slope was fitted to
 */
public record Backlog(double pendingAtEnd, double growthPerSecond, int points) {}
