package io.ds2.experiments;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The six Nexmark queries of the autoscaling papers fed from Kafka on a cluster at Flink's
 * defaults, 15 minutes each: long enough for the Flink autoscaler at its documented example to act
 * twice, and for ds2 to settle and be judged on the settled job.
 */
final class KafkaNexmarkSection {
  static final String NOTES =
      """
      Notes (2026-12-05, Flink 1.20.5; the figures in the bullets are each controller's first
      run, ds2's second runs are the last bullet). ds2 at 0.7: Q1 and Q5 at 6abc017, Q8 at
      b197c10 (the same ds2 code, with `NO_SLOT_FREED`, below), Q2 at e351ad7, Q3 at 9618907,
      Q11 at bb75726. The Flink autoscaler
      (`flink-autoscaler` 1.10.0) at its documentation's example and target 0.7: Q1, Q2, Q5 and
      Q8 at 3883899, Q3 and Q11 at bb75726 with its `vertex.max-parallelism` at the cluster's
      32 slots (below). The main
      operators' loads at 0.7: Q1 and Q5 1,550 bids/s, Q2 1,350/s at 10 ms (23 and 20
      instances, Q5 more by its key groups), Q3 216.7/s at 90 ms (28, more by key groups,
      above the 32 slots), Q8 400/s at 23.75 ms (14, 16 by key groups), Q11 1,833.3 bids/s at
      15 ms (40, above the 32 slots).
      - **ds2 against the Flink autoscaler**: ds2 is ahead on the backlog users feel — lag peak
        50,508 vs 222,999 (Q1), 10,097 vs 142,367 (Q2), 89,600 vs 1,528,067 (Q3), 52,235 vs
        222,251 (Q5), 0 vs 367,000 (Q8), 250,051 vs 422,253 (Q11) — and on time
        under-provisioned (92-304 s vs 366-372 s): the autoscaler cannot act before its 1-minute stabilization and 5-minute metrics
        window have passed (its first decision at 366-371 s in every query), ds2 acts from
        89 s. Seconds behind: ds2 ahead on every query, Q1 (191 vs 314), Q2 (48 vs 315), Q3 (10
        vs 300), Q5 (139 vs 311), Q8 (10 vs 289) and Q11 (241 vs 329); Q5's earlier ds2 run (at
        e351ad7, before `NO_SLOT_FREED`) was behind 354 s, its source restarted for 2 -> 1 in
        the middle of the climb. **The
        autoscaler is ahead on rescales**: one step in Q1, Q3, Q5, Q8 and Q11, two in Q2,
        against ds2's 3-5: by the time it decides, the
        backlog shows in the lag and its catch-up term (backlog over 5 minutes) sizes the job
        in one step, where ds2 climbs on a lag that does not yet show the backlog (below). The
        blind lag misleads it too: on Q2 its first step read 895/s for ~1,467 (8 -> 18 at 366
        s), its second, at 819 s, 1,621/s with the backlog's catch-up (18 -> 30). It ends at
        about ds2's level on Q1 (22, busiest 71 %, against ds2's 23 at 68 %), higher on Q2 (30
        at 45 % against 20 at 68 %), the same on Q3, Q5 and Q8 (32, 32, 16). Its slot-seconds
        below the oracle's on Q1 and Q2 (0.70 x, 0.75 x) are its 6 minutes at 8, not savings.
      - **ds2 is slow where a back-pressured source's lag is blind and over where a drain is
        read as arrival.** The Events source, back-pressured by a main operator at 8, reads
        what the job takes, and its lag at Kafka's default fetch does not grow with the backlog
        (the backlog sits in the consumers' buffers and Flink's network buffers): the arrival
        reads low (893/s for ~1,685 events/s in Q1, 946/s for ~1,467 in Q2, 862/s for ~1,685
        in Q5) and ds2 climbs in steps (Q1 8 -> 12 -> 17 -> 23, Q5 8 -> 11 -> 22), then the
        window that drains the backlog reads high and the last step overshoots: Q1 23 -> 30 on
        2,225.5/s at 441 s, back to 23 at 812 s after the scale-down delay; Q5 22 -> 32 on
        2,165.1/s at 343 s, busiest 49 % after it, and it stays at 32: the 26 it then asks for
        is within the 0.2 scale-down threshold; Q2 19 -> 25 on 1,875.8/s and back to 20 at 684
        s. The runs before (at e351ad7) did the same: Q1 20 -> 27 on 2,002.8/s, Q5 24 -> 32 on
        2,109.4/s. Neither consumer gauge tells the drain
        (`experiments/diagnostics/fetch-gauges/README.md`); adding each subtask's records per
        fetch to its lag, as the records it holds, was tried offline on Q1 and reads no better
        (from +105 % to -35 % of the arrival per window).
      - **A late restart for nothing, fixed**: ds2's first Q11 run (at 4c65863) climbed 8 -> 13
        -> 22 -> 32 by 374 s (capped at the slots, `SLOT_LIMIT`; 40-46 wanted) and drained
        its backlog there, until at 865 s the source's pending scale-down 2 -> 1 "joined" a
        rescale the slot cap had taken back: the job restarted for the source alone, replayed
        ~90,000 records since its last checkpoint and was judged not keeping up in the 35 s
        left. Under slot sharing the source at 2 beside a vertex at 32 costs no slot: ds2 no
        longer restarts a job for a scale-down that frees none (`NO_SLOT_FREED`, 66bde17) and
        joins a due scale-down only to a rescale the cap leaves standing
        (`experiments/diagnostics/q11-late-restart/`). Replayed, the lone source scale-downs 2
        -> 1 at the end of Q1, Q5 and Q8 are held too (one restart fewer each); live, Q5's
        source stayed at 2 from 443 s to the end (`NO_SLOT_FREED` 16 times) and Q1's went to 1
        only with the main operator's 30 -> 23 at 812 s, one restart for both; Q8's went with
        the Window Join's 16 -> 17 at 393 s (8 -> 15 -> 16 -> 17, lag 0, busiest 65 %; its run
        before ended at 16 with the source's lone 2 -> 1 at the end). Q11 on the fix:
        8 -> 10 -> 24 -> 32 by 303 s (capped at the slots), the source's scale-down held at 725
        and 756 s (`NO_SLOT_FREED`), and it keeps up at the end, still draining (210/s, 40,335
        left, the Sessions 100 % busy while they drain).
      - **The Flink autoscaler asked for what cannot start**: its first Q3 run (at 3883899,
        uncapped) asked for the Join at 64 on 32 slots eight times (its catch-up term); none
        could start, the job stayed at 8 and did not keep up (lag 4,274,335 at the end;
        `experiments/diagnostics/flink-as-uncapped/`). On a cluster of fixed size its users cap
        it with `job.autoscaler.vertex.max-parallelism`; the bench now sets that to the
        cluster's slots for it (9dc9561; ds2 reads them itself). Capped, it went 8 -> 32 at 370
        s and kept up at 70 %. Q11, capped: 8 -> 32 at 370 s, keeping up at the end while
        draining (313/s) a backlog that peaked at 422,253 (ds2: 250,051) and had 231,743 left
        (ds2: 40,335).
      - Q3 and Q8 are marked not valid by the bench's own check: their overload at 8 did not
        show at the sources within 40 s (ds2's Q8 lag stayed 0), so the start is not a fair
        test of reaction there; both controllers end sized and keeping up on both.
      - **ds2's second runs** (Q1, Q2 and Q5 at ea5f854, Q3 at d3b0c8d with this page's
        text edited and not yet committed, which its recording calls "-dirty": the same decision
        code as the first runs; their
        recordings also keep how old the records each source subtask emits are) went as the
        first: Q1 8 -> 10 -> 13 -> 23 -> 28 (4 rescales against 5; lag peak 95,871, 18,582
        slot-seconds, under-provisioned 346 s), Q2 8 -> 10 -> 12 -> 19 -> 21 (4 against 4;
        23,496; 14,950; 346 s), Q5 8 -> 11 -> 19 -> 31 -> 32 with the source 2 -> 1 (4 against 3;
        63,355; 22,574; 183 s), Q3 8 -> 26 -> 32 at the slots (2 against 3; 6,607;
        25,627; 92 s). Each first step read the arrival from the blind lag (974.2,
        1,016.3 and 985.1/s for ~1,685, ~1,467 and ~1,685), each last scale-up a drain (Q1 23 -> 28 on
        2,079.7/s, Q5 19 -> 31 on 1,822.9/s). How old the records were read the arrival within
        25 % before each first step and within 15 % in those drains a minute in, but far off in
        a restart's first minute (`experiments/diagnostics/record-age/README.md`); the rule
        built on it since, and its runs, are the next section.
      - **A benchmark defect found on Q3 and fixed (9618907)**: ds2's first Q3 run (at
        e351ad7) asked the 32-slot cluster for 40: the bench's timing wrapper passed only the
        slot-less call to the policy, so every benchmark ran ds2 blind to slots; no other
        stored run asked for more than its slots. On the fix (the row above): 8 -> 26 at 91 s,
        26 -> 32 at 183 s capped at the slots (40 wanted), keeps up at 32 with the busiest
        subtask at 70 %, behind 10 s.
      """;

  private KafkaNexmarkSection() {}

  static void render(StringBuilder md, Path dir) throws IOException {
    KafkaDefaultFetchSection.section(
        md,
        dir,
        """
        ## Nexmark on Kafka at Flink's defaults, 15 minutes a query

        Q1, Q2, Q3, Q5, Q8 and Q11 as DataStream jobs chained as Flink chains them (the kinds of
        event a query reads filtered in its source's chain, the sink chained to its main
        operator), the Nexmark generator's events written to a topic of 12 partitions and read
        by a checkpointed KafkaSource at Kafka's default fetch, on the flink-defaults cluster (10
        s metric refresh, default network buffers; 2 x 16 slots), each from 2 source and 8 main
        instances at the DS2 paper's loads (its Table 4 optima 16, 14, 20, 16, 10 and 28, each load half an
        instance below the integer), for 15 minutes (`bin/ds2-bench suite --feed kafka --cluster
        flink-defaults --scenarios nexmark-q1-15m,nexmark-q2-15m,nexmark-q3-15m,nexmark-q5-15m,nexmark-q8-15m,nexmark-q11-15m
        --controllers CONTROLLER --repeats 1 --out experiments/results/kafka-nexmark-15m`). The
        oracles count the key groups each subtask owns (Q3, Q5, Q8 and Q11 are keyed) and the
        partitions each source subtask reads. One run of each, and a second of ds2 on Q1, Q2,
        Q3 and Q5 (`--repeats 2`; the runs column says which): no spread to judge by yet.
        Columns as in the headline.

        """,
        NOTES);
  }
}
