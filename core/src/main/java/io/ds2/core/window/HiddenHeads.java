package io.ds2.core.window;

/**
 * Whether a source's backlog gauge showed partition heads that stood still while records certainly
 * arrived: its Kafka consumer held fetched records its lag does not count.
 *
 * <p>A Kafka source's lag ({@code pendingRecords}) is, per partition, the high watermark as of that
 * partition's last fetch less the read position, and it is set only as records of that partition
 * are taken. A consumer fetches a partition again only when it has taken what it fetched, so a
 * saturated source with Kafka's default fetch (1 MiB a partition, thousands of records) takes one
 * partition's records after another: while it takes one, (records read + lag) stands still to the
 * record; when it moves on to the next, the sum jumps by that partition's whole fetch. Meanwhile
 * the records fetched for the other partitions, and whatever arrived since, are counted nowhere:
 * the sum grows at about the rate the source reads, whatever arrives (measured: 150/s read, 400/s
 * arriving; flat for 10 s, then +2,750, again and again). A gauge that shows what arrives grows
 * with every interval; one that stands still while thousands are read, then jumps, is this one.
 * Measured over every stored Kafka-fed recording: an interval that stood still while over 100
 * records were read came in 7 of 29 intervals of the 1 MiB run, 3 of 7,400 at 4 KiB fetches.
 */
final class HiddenHeads {
  /** Reads below this in an interval say nothing: the gauge's own rounding may hide them. */
  static final double MIN_READ = 100;

  /** (Read + lag) moved by less than this fraction of the reads: the heads stood still. */
  static final double STILL = 0.02;

  /**
   * Of the intervals in which the source read, at least this share stood still: a blind gauge
   * stands still for as long as one partition's fetch takes to read (every other interval at a 10 s
   * refresh, most of them at 1 s); a fresh one at a 1 s refresh may stand still once in tens of
   * intervals by its own noise (a 4 KiB consumer draining at 1,000 records/s: 1 in 40, beside a
   * sawtooth rise of 400 records).
   */
  static final double STILL_SHARE = 0.25;

  /** (Read + lag) grew by more than this times the reads: a fetch came into view at once. */
  static final double JUMP = 1.5;

  private HiddenHeads() {}

  /**
   * Over readings {@code [from, to)} (read + lag, lag), whether intervals stood still while the
   * source read (a {@link #STILL_SHARE} of them or more) and another jumped: a gauge that stands
   * still only (a topic nobody writes to, a source draining what waits) is no sign; nor a jump only
   * (a burst), nor a stand-still now and then (the noise of a fresh gauge).
   */
  static boolean seen(double[] totals, double[] pending, int from, int to) {
    int reading = 0;
    int still = 0;
    boolean jump = false;
    for (int k = from + 1; k < to; k++) {
      double read = (totals[k] - pending[k]) - (totals[k - 1] - pending[k - 1]);
      if (read < MIN_READ) {
        continue;
      }
      reading++;
      double moved = totals[k] - totals[k - 1];
      still += Math.abs(moved) <= STILL * read ? 1 : 0;
      jump |= moved >= JUMP * read;
    }
    return jump && still > 0 && still >= STILL_SHARE * reading;
  }
}
