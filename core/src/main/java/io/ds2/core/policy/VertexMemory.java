package io.ds2.core.policy;

import io.ds2.core.estimate.Reason;
import io.ds2.core.estimate.ReasonCode;
import io.ds2.core.options.Ds2Options;
import io.ds2.core.policy.ScalingPolicy.ScaleDown;
import io.ds2.core.policy.VertexTargets.Proposal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the policy remembers of one vertex: its proposals of the recent windows (a ring of the last
 * {@code activation}, {@code filled} of them valid), a pending scale-down and its note.
 */
final class VertexMemory {
  final int[] recent;
  int filled;
  int next;
  ScaleDown down;
  DelayNote note;

  VertexMemory(int activation) {
    recent = new int[Math.max(1, activation)];
  }

  void add(int proposed) {
    recent[next] = proposed;
    next = (next + 1) % recent.length;
    filled = Math.min(filled + 1, recent.length);
  }

  /** The i-th of the valid recent proposals, oldest first. */
  int get(int i) {
    return recent[Math.floorMod(next - filled + i, recent.length)];
  }

  List<Integer> recentList() {
    List<Integer> l = new ArrayList<>(filled);
    for (int i = 0; i < filled; i++) {
      l.add(get(i));
    }
    return l;
  }

  /**
   * Per vertex: activation over the recent windows, then the scale-down delay. A scale-down that
   * waited out its delay goes to the highest recommendation since it began — or, where a forecast
   * acts ({@code forecastLead}), to the highest of the recent windows': the look back keeps
   * capacity in case the load returns, and a forecast raises the estimate a lead time before a
   * return it foresees (it never lowers one: the scale-down and its depth are still measured).
   */
  int target(
      Proposal p,
      Instant now,
      Ds2Options options,
      Optional<Duration> forecastLead,
      Reason[] extra,
      int i) {
    int current = p.estimate().currentParallelism();
    boolean allUp = true;
    boolean allDown = true;
    boolean anyChange = false;
    int lowest = Integer.MAX_VALUE;
    int highest = Integer.MIN_VALUE;
    for (int k = 0; k < filled; k++) {
      int h = get(k);
      allUp &= h > current;
      allDown &= h < current;
      anyChange |= h != current;
      lowest = Math.min(lowest, h);
      highest = Math.max(highest, h);
    }
    if (anyChange && filled < options.activation()) {
      extra[i] =
          new Reason(
              ReasonCode.ACTIVATING,
              filled + " of " + options.activation() + " windows agree on a change so far");
      return current;
    }
    if (!allDown) {
      down = null;
      note = null;
    }
    if (allUp) {
      if (lowest != p.proposed()) {
        extra[i] =
            new Reason(
                ReasonCode.ACTIVATION_SMALLEST,
                "the last "
                    + filled
                    + " windows all asked for more ("
                    + recentList()
                    + "): the smallest, "
                    + lowest
                    + ", is taken");
      }
      return lowest;
    }
    if (allDown) {
      if (down == null || highest > down.highest()) {
        down = new ScaleDown(down == null ? now : down.since(), highest);
      }
      Instant due = down.since().plus(options.scaleDownDelay());
      if (now.isBefore(due)) {
        extra[i] = delayNote(down, due);
        return current;
      }
      int to = dueTarget(highest, forecastLead.isPresent());
      if (to < down.highest()) {
        extra[i] =
            new Reason(
                ReasonCode.SCALE_DOWN_TO_LATEST,
                "lower since "
                    + down.since()
                    + "; a forecast looked "
                    + forecastLead.get().toSeconds()
                    + " s ahead, so it goes to the highest recommendation of the last "
                    + filled
                    + " windows, "
                    + highest
                    + ", not the highest since then, "
                    + down.highest());
        return to;
      }
      if (down.highest() != p.proposed()) {
        extra[i] =
            new Reason(
                ReasonCode.SCALE_DOWN_TO_HIGHEST,
                "lower since "
                    + down.since()
                    + ": scaling down to the highest recommendation since then, "
                    + down.highest());
      }
      return down.highest();
    }
    if (anyChange) {
      extra[i] =
          new Reason(
              ReasonCode.DIRECTION_UNSTABLE,
              "the last " + filled + " windows disagree on the direction: " + recentList());
    }
    return current;
  }

  /**
   * Where this vertex's pending scale-down goes if its delay ends before {@code by} and every
   * recent window still asks for less than {@code current} (as {@link #target}: where a forecast
   * acts, the highest of the recent windows); -1 if it does not.
   */
  int scaleDownDueBefore(int current, Instant by, Duration delay, boolean forecast) {
    if (down == null || filled == 0 || by.isBefore(down.since().plus(delay))) {
      return -1;
    }
    int highest = Integer.MIN_VALUE;
    for (int k = 0; k < filled; k++) {
      if (get(k) >= current) {
        return -1;
      }
      highest = Math.max(highest, get(k));
    }
    return dueTarget(highest, forecast);
  }

  /**
   * Where a scale-down that waited out its delay goes, its recent windows asking for at most {@code
   * recentHighest}: the highest recommendation since it began, or where a forecast acts, the recent
   * windows' highest (never above the former).
   */
  private int dueTarget(int recentHighest, boolean forecast) {
    return forecast ? Math.min(recentHighest, down.highest()) : down.highest();
  }

  /**
   * Another vertex was rescaled: this one's windows start afresh (the job restarted), but its
   * pending scale-down keeps its start, so the delay is not begun again by a restart it did not
   * cause; a window after the restart that does not ask for less still ends it.
   */
  void otherVertexRescaled() {
    filled = 0;
  }

  // A pending scale-down is noted every window until it is due; its text (two timestamps) is
  // rendered once per change of it, not once per vertex per window.
  private Reason delayNote(ScaleDown down, Instant due) {
    DelayNote last = note;
    if (last != null && last.down().equals(down)) {
      return last.reason();
    }
    Reason r =
        new Reason(
            ReasonCode.SCALE_DOWN_DELAYED,
            "lower since "
                + down.since()
                + "; scaling down to the highest recommendation ("
                + down.highest()
                + ") after "
                + due);
    note = new DelayNote(down, r);
    return r;
  }

  record DelayNote(ScaleDown down, Reason reason) {}
}
