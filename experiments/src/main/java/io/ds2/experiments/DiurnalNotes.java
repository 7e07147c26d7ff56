package io.ds2.experiments;

/** What was seen in the diurnal benchmark's runs, per set of runs ({@link DiurnalSection}). */
final class DiurnalNotes {
  private DiurnalNotes() {}

  /** Both controllers' runs made at once at de98328, a due scale-down joining any restart. */
  static final String LATEST =
      """
      Notes (2026-12-07). Both controllers at de98328, the six runs at once as for the set below
      (`--repeats 1`, `2` and `3` each into its own directory, merged). The change from the set
      below, for both controllers: a pending scale-down joins a rescale of other vertices when its
      delay ends before its vertex could act again on its own (the restart starts its windows
      afresh: a warm-up and two windows, 90 s), not only before the next decision.
      - **Every evening's step now takes the Orders source along** (`SCALE_DOWN_JOINED`, 6 -> 3 or
        4, in all eleven evening steps of days 3 and 4; reactive's run 3 made none on day 4 before
        the run ended): predictive's separate night rescale of that source (0:46-1:07 in the set
        below) is gone. Predictive's nights ran at the Join's 4-5 slots; reactive's at 6 (its Join
        steps to the highest since the need fell).
      - **Rescales 8 (8-9) against reactive's 11 (10-12)**, slot-seconds **1.03 x** reactive's
        (15,382-16,697 against 14,758-15,897; 1.06 x in the set below). Over the whole run, where
        the first two days are reactive in both, predictive used 1.04 x (30,389 against 29,354).
      - **Behind by the schedule 11 s against 43 s by the medians (25 %: within the bar), but the
        runs spread widely** (predictive 11, 0 and 158 s; reactive 43, 120 and 22 s): predictive's
        run 3 was behind 124 s in its two morning ramps (day 3 6:44-7:58 and day 4 6:52-7:41) with
        the Orders source at 4 while its windows asked for 6 (on day 3 held at 7:19 as within the
        headroom), and yet by the records' age it was behind 27 s and never below the oracle. By the
        records' age the two do not overlap: 16 s (6-27) against 105 s (92-166). Under-provisioned 0
        s in every predictive run, 293-354 s reactive.
      - The join changed reactive's mornings too, not for the better: its evening step now takes the
        Orders source to the night's 3-4, and the morning's step down (with the Join, 6:07-6:17 on
        day 3, as the ramp begins) to 3, where in the set below it stayed at 6 overnight and went to
        4 then; it stayed at 3 up the ramp until 7:48-9:27 (under-provisioned 312 s against 263
        s; by the records' age behind 105 s against 39 s). By the schedule reactive
        moved the other way, 123 s to 43 s, and predictive's by the records' age from 3 s to 16 s:
        these figures move by tens of seconds from one set to the next, so a single set's ratio is
        not the last word.

      """;

  /** Both controllers' runs made at once at 2d1fb98, a forecast's scale-down to the latest. */
  static final String TO_LATEST =
      """
      Notes (2026-12-07). Both controllers at 2d1fb98, the six runs at once as for the set below
      (`--repeats 1`, `2` and `3` each into its own directory, merged). The change from the set
      below: where a forecast acts, a scale-down that waited out its delay goes to the highest
      of its last two windows' recommendations (`SCALE_DOWN_TO_LATEST`), not to the highest
      since the need fell; the reactive runs take the same code path as before.
      - **Slot-seconds 1.06 x reactive's from the third day** (15,947-17,090 against
        15,622-16,397; 1.13 x in the set below), and over the whole run predictive used fewer
        (29,754 against 30,856): the evening's scale-down now leaves the afternoon's level —
        the Join 9 -> 5 and 8 -> 4 at 18:25-19:32 (`--max-step-down` 2 caps it; the windows
        asked for 3), the Orders source 6 -> 3 at 0:46-1:07 of the next day, where the set
        below kept the Join at 6-7 all night.
      - **Rescales 7-8 against reactive's 12** from the third day; that source step in the
        night is one of them, made because with the Join at 4-5 lowering it frees slots.
      - **Behind by the schedule 69 s (38-82) against 123 s (43-174): 56 % of reactive's,
        short of the bar (50 %)**; by the records' age 3 s (3-36) against 39 s (35-57).
        Under-provisioned 0-26 s against 261-279 s.
      - Run 3 kept the Join at 8 through lunch (its slot-seconds the lowest, 15,947); runs 1 and
        2 took it to 9 there. No run took the Orders source above 6.

      """;

  /** Both controllers' runs made at once at 230f007, the lead time counting activation. */
  static final String LEAD =
      """
      Notes (2026-12-06). Both controllers at 230f007, the six runs at once as below (`--repeats
      1` each into its own directory, renamed 1-3 and merged): one machine load for all six, the
      Orders source's true rate per instance 128-131/s in every run (median over each run's
      decisions; reactive 128.9, 130.5, 127.9; predictive 130.0, 129.4, 130.9). The change from
      the runs below: the forecast looks ahead by the rescale time, a warm-up and *every* window a
      change must persist (`--activation`, 2: 111-117 s here against 81 s), so a rise is seen a
      window earlier and made when it is needed.
      - **Predictive was never short of capacity** (0 s in all three, against 187-266 s reactive
        and 0-109 s in the runs below) and rescaled 7-8 times against 11. Day 3: the forecast's
        raise came at 5:09-5:41, as the night's scale-down (5 min delay) came due, and kept the
        night's level through the ramp (runs 1 and 2; run 3's came at 5:49, its night already at
        the ramp's level). Day 4: the night's scale-down went at 5:03-5:33 to what the forecast
        needed within the lead time (Orders 4, Join 4-5, where the windows asked for 3), and the
        ramp's raise followed at 6:37-7:07 after its activation window. Reactive stepped down to
        3-4 at 5:13-5:58 and was short as the ramp began.
      - **Behind by the records' age**: 3, 49 and 41 s against 119, 69 and 65 s; predictive's
        counted spans peak at 0.7-1.8 s of age, each within a minute after one of its rescales
        (the restart's downtime); reactive's peak at up to 5.9 s (run 1, day 4's lunch, 65 s).
        59 % of reactive's median: short of the bar (50 %).
      - **Behind by the schedule is all on the sources' reads** (the lag's own slope counted 0 s
        in all six runs), and was misread until the sources' counters were placed in time
        without their subtasks' start (e9a1584; every diurnal set on this page is rescored with
        it). The test sets what the schedule sent over the span the counters cover against what
        the sources read, the span placed by the subtasks' elapsed time since the job entered
        RUNNING, which includes their start after it (the least counter age over a run: 2.6 s
        at 12 Orders subtasks, 0.2-1.9 s at 3-6). Placed that much too early, a falling load
        read as behind and a rising one hid a shortfall: before the correction reactive read
        121, 65 and 58 s, predictive 40, 190 and 78 s, run 2's mostly as the load fell
        (12:26-13:12, 14:01-15:49) while its Orders source ran at 12, twice what it needed.
        Corrected: reactive 188, 56 and 85 s (its ramp-ups now show), predictive 52, 69 and 27
        s, what remains of predictive's in spans of about 10 s, one metric refresh each (61 %
        of reactive's median: short of the bar).
      - **Slot-seconds 1.13 x**: run 2 took its Orders source 6 -> 12 on two lunch windows (607
        and 611/s, the source 73.8 % and 72.5 % busy on average, its busiest subtask judged above
        the 73 % the tolerance allows; 12 partitions spread evenly at 6 or 12), held through the
        afternoon's scale-down delay (19,126); the other five runs kept 6 at lunch, held by the
        tolerance (busiest subtask 70.4-72.8 %) or by windows disagreeing. Runs 1 and 3 (17,736
        and 16,378) hold the night's level into the ramp instead of stepping down minutes before
        it.
      - **Why a live window had no forecast**: the recordings now keep each window's forecast.
        Run 1 had none in 8 of its day-3 windows (3:39-5:10, 6:42-7:13, 14:46-15:14):
        `HOLDOUT_ERROR`, the held-out day forecast 16-27 % off (at most 15 %), the day it was fit
        on being the first, when the job started from parallelism 1 and its readings of the
        arrival were off while it caught up; from day 4 on every window had one. Runs 2 and 3:
        none only before a day was held out (4-5 windows, `NOT_ENOUGH_HISTORY`). At 6:42 in
        run 1 the measured windows asked for less on the ramp; the scale-down delay held it.
      """;

  /** Both controllers' runs made at once, on one machine load (301773d). */
  static final String TOGETHER =
      """
      Notes (2026-12-06). Both controllers at 301773d, the six runs at once (`--repeats 1` each
      into its own directory, renamed 1-3 and merged): one machine load for both. The machine was
      much busier than for the runs below (load average 30-80 on 2 cores): the Orders source's true
      rate per instance read 131-133/s in every run (median over each run's decisions; reactive
      131.5, 133.2, 131.2; predictive 131.1, 132.2, 133.1) against 144/s and 136-137/s below. No
      sample gap over 3 s from day 3 (13 s on day 1).
      - **The bar fails on behind by both readings** and holds on slot-seconds (1.07 x) and
        rescales (10 against 12). Short of capacity predictive is ahead: 0, 109 and 60 s against
        158, 212 and 315 s; ranges apart.
      - **Behind by the schedule is all on the sources' reads** in all six runs (the lag's own
        slope never counted: at Kafka's default fetch it stays flat): the schedule had sent 1-2 %
        more than the sources read over the span their counters cover, on the ramps and as lunch
        rose (predictive run 2: 102 s of it, e.g. 601.8 sent against 589.0/s read on day 3 at
        7:43; 940.2 against 929.9/s at 10:59), the feed a few seconds behind its schedule on a
        machine running six benches.
      - **Behind by the records' age**: the age peaked at 0.7-1.9 s in predictive's counted
        spans (reactive: up to 8.7 s, run 1 day 3 after its 8:49 step; run 3 day 3 61 s as lunch
        began, its Orders source at 4 until 11:50). Predictive run 1's 40 s: 17 s around its step
        at day 4 10:48 and 23 s at day 4 13:52-14:15 with no rescale near, the emitted records'
        age jumping from 10-50 ms to 0.96 s and back without a change in the job (the machine
        stalling it); run 2's 32 s: 23 s after the ramp's step at day 3 8:36, 7.5 s after lunch's
        step, 2 s; run 3: 0. At this load the criterion's 1 % (0.6 s of age over a minute)
        is within what the machine alone adds.
      - **Where predictive was short of capacity** (runs 2 and 3, day 3 6:00-7:04): the night's
        measured scale-down took the Join to 3 at 5:18 and 5:28, 32-42 s before the ramp; the
        forecast's raise first showed at 6:27 and 6:29 (398.6 and 395.0/s ahead for 211 and
        220/s now) and waited for a second window (`ACTIVATING`); run 3's second window raised
        (6:59: Join 3 -> 6), run 2's showed no forecast (7:01: the Join to 4 on its window, the
        source's direction unstable) and the ramp's next step came at 8:36. Looking 81 s ahead
        at 5:18-5:28, the forecast had only the ramp's first minute in view (about 0.6 of its
        top, near its error above the night's 200/s), so the scale-down went through; what it
        said then, and why run 2's 7:01 window had no forecast where its replay (`whatif`) has
        one, is not in the recordings: they keep each decision, not the forecast it was made
        with (the next thing to record).
        Lunch: the Orders source at 4 for 22 s on days 3 and 4 of run 2 (reactive: 33-113 s a
        day, the same shortfall).
      """;

  /** The runs with a rise sized for the forecast's peak less its error (301773d). */
  static final String SURE =
      """
      Notes (2026-12-06). Predictive ds2: runs 1-3 at 301773d, run together (each beside the two
      others). Reactive ds2: the runs of `results/diurnal-wallclock` at 519a4ae, copied here
      (301773d and the commits between change only the forecast, which reactive ds2 never takes).
      **The two ran on differently loaded machines**: the Orders source's true rate per instance
      read 144/s (median over each run's decisions) in these predictive runs against 136-137/s in
      the reactive runs (three to five benches at a time). A slower instance needs more of them:
      at reactive's rate predictive would have needed up to about 6 % more slot-seconds (about
      1.08 x by the medians, still within the bar); the runs above are both controllers on one
      machine load. No sample gap over 4 s from day 3.
      - **What changed (301773d)**: a rise is sized for the forecast's peak less its own error,
        the demand the forecast is sure of; the target utilization keeps its headroom above that.
        Before (the runs below), the forecast's 628/s at 8 % took the Orders source from 6 to 12
        (at 6 its busiest subtask would have run 76 %, above the 73 % the scale-up tolerance
        allows; at 582/s, 71 %) and the Join to 9 where 8 keep up. Replayed before these runs on
        the six recordings below with the fluid side by side (`whatif --side-by-side`, every
        vertex spread evenly): predictive slot-seconds 0.3-3.9 % lower, behind within 2 s.
      - **In these runs** the Orders source never went above 6 (run 2 below: 12 on days 2 and 3),
        the Join to 8 at lunch (9 once, from a window of 601/s). The forecast raised for lunch
        at 10:28 and 11:02 on day 3 (runs 1 and 2; in run 3 it raised the source to 6 at 9:39 and
        the window took the Join to 9 at 11:20), and on day 4 at 9:59, 10:32 and 10:28, the source
        from 4 to 6 with the Join; where its raise left the Join short of lunch, the windows took
        it the rest of the way (run 1 day 4 at 11:31, run 2 day 4 at 12:10). From day 3 behind 0
        s by either reading in every run (reactive: 0-41 s by the schedule, 54-69 s by the
        records' age), short of capacity 3-33 s (reactive 205-245 s; all of it on day 4 as lunch
        began, the Orders source at 4 until the forecast took it to 6 at 9:59, 10:32 and 10:28,
        where the oracle needs 6 from 10:00), 15,686-16,475
        slot-seconds (reactive 15,497-16,747), 10-11 rescales (reactive 11-12). Against
        reactive's run 1 the slot-seconds still go to the ramp (minutes 6-9, +20 to +120 a
        minute: a step sized a lead time ahead) and lunch's second minute (+140 to +200: the
        Join at 8 where reactive's windows had it at 7).
      """;

  /** The runs with the feed on the wall clock and the forecast's fixes (519a4ae, 5432521). */
  static final String WALLCLOCK =
      """
      Notes (2026-12-06). Reactive ds2: runs 1-3 at 519a4ae (the feed paced on the wall clock from
      its `start`), each beside two to four other benches. Predictive ds2: runs 1-3 at 5432521 (the
      forecast's two fixes below; runs 1 and 2 beside four or five other benches, run 3 beside up to
      four). 5432521 changes only the forecast, which reactive ds2 never takes, so the reactive runs
      stand for it. The machine was busy: the Orders source's true rate per instance read 140-141/s
      in these runs against 146-147/s in runs made alone, both controllers alike. No sample gap over
      5 s but one of 5.7 s (predictive run 2, on day 1).
      - **Two causes of the forecast's lateness fixed, replayed before these runs.** In the runs
        below (`results/diurnal-headroom`) there was no forecast at lunch on 4 of 6 days: fitted on
        a period and 7-8 steps before the held-out day, the trended model's weights went to 1, its
        trend followed the morning ramp the history ended in and carried it 20 steps ahead (the
        held-out day 213 % off); the model without a trend is now fitted beside it and followed
        where it would have forecast the held-out day better (99c5d4f). And each window's rate was
        learnt at the decision's instant, a ramp half a window late and by a different share each
        day; it now counts in every one-minute step it measured, by the time spent there (5432521).
        Replayed on the three earlier predictive recordings: decisions without a forecast 56 -> 24
        of 209; the forecast asking for lunch's scale-up in two windows running before minute 10 on
        4 of 6 days (was 1).
      - **In these runs the forecast met lunch**: the Join (and where the source was at 4, the
        source) scaled for it before minute 10 or in its first 15 s on 5 of 6 days (run 1 day 4 at
        9:50; run 2 days 3 and 4 at 10:10 and 10:12; run 3 days 3 and 4 at 10:28 and 10:12; run 1
        day 3 at 11:01, its source already at 6 since the night). From day 3 short of capacity 0,
        0 and 14 s against reactive's 205-245 s; behind by the records' age 13, 1 and 0 s against
        54-69 s. Run 3 reads 197 s behind by the schedule where its records' age reads 0 s, read
        sample by sample (2026-12-06): all of them at the ramps (minutes 6-8: 90 s on day 3, 50 s on
        day 4) and as lunch's load rose (minutes 10-11: 18 s each day), every one scored on the
        reads alone: over the span the sources' counters covered, the schedule had sent 1.0-1.5 %
        more than they read (575 against 569/s, 926 against 913/s), while the lag's own trend was
        flat at 0 and the records they emitted grew no older. With the schedule rising 3-5
        records/s every second, a feed 2-3 s behind its schedule (six benches on two cores) reads
        so: the job kept up with what was sent. Runs 1 and 2 read 1 s.
      - **The cost is above the bar**: 16,665-18,466 slot-seconds against reactive's 15,497-16,747,
        1.12 x by the medians (the bar: 1.10). Where the slot-seconds go (day 3 on, against
        reactive's run 1): the ramp's minutes 6-10 +540 to +760 (the Join and the source sized for
        the ramp's end and for lunch a lead time ahead: the price of being early), lunch's minutes
        10-13 +580 and +1,230 (the Join at 9, sized for the forecast's 580-628/s, where reactive's
        windows took it to 7-8; in run 2 on day 3 the Orders source at 12: 628/s at 0.7 of the 137/s
        an instance read then needs 6.5 (DS2's 7), the topic's 12 partitions split evenly only at 6
        or 12, and at 6 the busiest subtask would have run 76 %, above the 73 %
        `--scale-up-tolerance` allows; at the 147/s an instance reads on a quiet machine it would
        have been 71 %, held). Reactive ran into the same step once (run 2, day 3 at 12:07, 6 -> 12
        from a window of 604/s). Changed since (301773d): a rise is sized for the forecast's peak
        less its error, the runs above.
      """;

  /** The runs on scale-up-tolerance's code (73567e8, 371c5af), the feed on a monotonic clock. */
  static final String HEADROOM =
      """
      Notes (2026-12-06). Reactive ds2: runs 1-3 at 73567e8 (`--scale-up-tolerance` 0.1; run 1
      beside two other benches, runs 2 and 3 beside three). Predictive ds2: runs 1-3 at 371c5af (1
      and 2 beside three other benches, 3 beside two). 371c5af changes only the forecast's path
      (`ForecastSizing.raise`), which reactive ds2 never takes, so the reactive runs stand for it.
      It replaced predictive's run 1 at 73567e8 (in git at 546ea8d: from day 3 behind 16 s, short of
      capacity 128 s, 15,930 slot-seconds, 11 rescales), in which at day 3's lunch the forecast
      (581/s) and the window (422/s) both asked for the Orders source at 6 and the window's estimate
      was kept, so the tolerance held the step, judged at 422/s (busiest subtask 72.0 %): short 120
      s. The Flink autoscaler's row is its three runs in `results/diurnal/` (f065d05, 6c451a8; the
      harness has changed since only in its scoring): its decisions are the library's, and its
      recordings keep no records' age.
      - **The two readings of behind disagree, and why is found.** By the schedule (what the trace
        had sent less what the sources read over the span their counters cover) every run made today
        beside three other benches, of either controller, was behind 714-848 s from day 3, where
        reactive's run 1 was 13 s; in reactive's run 2, in every stretch it scored behind, the
        records the sources emitted were 11-18 ms old (median): they were read as soon as they were
        sent. By the records' age (their emit lag growing by more than 1 % of the time over the
        trailing minute: the same criterion, on what was really sent) the runs were behind 0-88 s.
        The cause: every bench's JVM stood still 20-21 s at 07:41:53 (a gap in all four recordings),
        the feed's producers paced their schedule on a monotonic clock that stood still with them,
        and from then on the whole load ran about 20 s behind the wall-clock schedule the phases,
        the oracle and the scoring follow (Payments, at parallelism 1, rose into day 4's lunch at
        about 4,225 s against 4,208 s in run 1). So in these four runs (run 3 of predictive started
        after the freeze: behind 0 s by either reading) every rise is scored behind and short of
        capacity for up to 20 s before it arrives, both controllers alike (reactive's run 1, made at
        05:10, is not); the records' age is unaffected. Fixed for the next runs (dad2a19: the feed
        paces on the wall clock, a freeze leaves a burst); these runs' schedule column stays as
        measured.
      - **Predictive against reactive, from day 3** (three runs each): short of capacity 108-255 s
        against 321-359 s, 15,295-16,289 slot-seconds against 14,383-15,055 (1.07 x by the medians),
        6-9 rescales against 9-12, behind by the records' age 0-11 s against 24-88 s. On the
        records' age, the slot-seconds and the rescales the bar holds; on the schedule's reading it
        does not, for the freeze above.
      - **The forecast did not reach lunch ahead of it.** On day 3 runs 1 and 2 met it at 4 and
        stepped to 6 from windows (at 3,073 and 3,104 s: short 74 and 108 s), run 3 at 3,067 s with
        the forecast (`FORECAST_AHEAD`, after its activation window); on day 4 run 3's source
        stepped at 4,220 s, 20 s into lunch; at 3,013 s the forecast raised nothing (a raise needs
        it above the window by more than its error: 9-11 % in these runs, 6 % in the run at
        73567e8). Two causes read from the decisions: the history learns each window's rate at the
        decision, half a window after the window's middle, and after a rescale's warm-up lunch's
        first minute holds few windows (run 1 at 73567e8: minute 10's bucket 406/s where the trace
        ramped from 390 to 585/s over it); and the lead time (81 s) reaches one or two one-minute
        buckets ahead. On day 4 the forecast moved the Join in the morning ramp (run 1: 3 -> 4 at
        4,019 s) and, in run 2, the source 4 -> 6 at 4,198 s, 2 s before lunch.
      """;

  /** The runs before scale-up-tolerance (ece3271 and older). */
  static final String BEFORE_TOLERANCE =
      """
      Notes (2026-12-06). **Runs 1 and 2 of both ds2s at ece3271** (the headline's decision
      code: a restart's backlog waited out), each pair side by side and beside two or three other
      benches on this 2-core machine (the Orders source's rate per instance 145.3-145.5/s in runs
      1 and 143.4-143.5/s in runs 2, against 146.4-147.0/s in runs made alone: up to 2 % slow).
      No run 3 on this code: what runs 1 and 2 showed changed the code (73567e8, above).
      - **From the third day neither ds2 was behind by the SLO for more than 3 s, but reactive
        ran short**: a vertex below the 98 %-busy oracle for 215 and 287 s of 2,400, predictive
        for 3 and 24 s. In run 1 reactive held 4/1/6 through the night, stepped down to 3/1/3 at
        minute 5.7 of day 3 as its scale-down delay ended, into the morning ramp, and was back
        at 4/1/6 by minute 8.7; it met lunch at 4 (about 590/s of 600/s: the lag grows under the
        SLO's 1 % of the demand) until 6/1/7 at minute 11.4. Predictive went from 4/1/4 to 6/1/6
        at minute 6.9 on the forecast (`FORECAST_AHEAD`) and to 6/1/8 at minute 10.5.
      - **Predictive cost 1.17 x reactive's slot-seconds in both runs** (17,131 and 17,436
        against 14,644 and 14,858: above the issue's 1.10), with 9 rescales against 10. In both
        most of the difference is one decision: at the end of day 3's lunch (611/s, x1.53 with
        the noise) the Orders source at 6 ran 0.71 busy for the 0.7 target (70.6 % in run 2), and
        the topic's 12 partitions split evenly only at 6 or 12: 6 -> 12 at 3,133 and 3,126 s,
        held through the scale-down delay to 3,567 and 3,531 s (2,100 and 2,430 of the 2,490 and
        2,578 extra slot-seconds). Reactive reached the same minute at 6 from smaller windows. A
        knife-edge of the split rule, not of the forecast: on this code a needed scale-up was
        never held, however small its need (`--scale-down-threshold` only damps scale-downs);
        the night after it at 6/1/6 (12 -> 6: `--max-step-down` 2) where reactive held 4/1/5
        comes from that step too. Since 73567e8 a scale-up is held while the busiest subtask
        stays within a tenth of the headroom above the target (`--scale-up-tolerance`);
        replayed, both 6 -> 12 are held.
      - **The Flink autoscaler** (its code is the library's, `flink-autoscaler` 1.10.0, capped
        at the cluster's 24 slots as its users cap it; run 1 at f065d05, runs 2 and 3 at
        6c451a8) ran the same way three times: 1/1/1 -> 2/1/2 at 377 s and 6/1/8 at 742 s, when
        its first 5-minute windows had filled, then every scale-down delayed by its 1-hour
        `scale-down.interval` (three of these compressed days), so it held the lunch level to
        the end: from the third day behind 0 s and never short, with no rescale, at
        19,182-19,195 slot-seconds (1.31 x reactive ds2's run 1, 1.12 x predictive's); over
        the whole run behind 675-696 s (its first 742 s) against ds2's 22-27 s, with 2
        rescales against ds2's 19-21. On days of 24 hours its hour would let it step down each
        evening; on this bench the interval is the compression's cost to it, as the scale-down
        delay is to ds2.
      """;
}
