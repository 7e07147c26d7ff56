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
      Notes (2026-12-05, ds2 at 0.7 only, one run each, Flink 1.20.5; Q1, Q2, Q5 and Q8 at
      e351ad7, Q3 at 9618907, Q11 at 4c65863; the Flink autoscaler's runs are next). The main
      operators' loads at 0.7: Q1 and Q5 1,550 bids/s, Q2 1,350/s at 10 ms (23 and 20
      instances, Q5 more by its key groups), Q3 216.7/s at 90 ms (28, more by key groups,
      above the 32 slots), Q8 400/s at 23.75 ms (14, 16 by key groups).
      - **Slower than on the generator and over at the end where a drain is read as arrival.**
        The Events source, back-pressured by a main operator at 8, reads what the job takes,
        and its lag at Kafka's default fetch does not grow with the backlog (the backlog sits
        in the consumers' buffers and Flink's network buffers): the arrival reads low (836/s
        for ~1,685 events/s in Q1, 946/s for ~1,467 in Q2, 949/s for ~1,685 in Q5) and ds2 climbs in steps (Q1 8 -> 12 ->
        15 -> 20, Q5 8 -> 10 -> 15 -> 20 -> 24), then the window that drains the backlog reads
        high and the last step overshoots: Q1 20 -> 27 on 2,002.8/s (it stays at 27, busiest
        58 %: 27 -> 23 is below the 0.2 scale-down threshold), Q5 24 -> 32 on 2,109.4/s
        (busiest 50 %), Q2 19 -> 25 on 1,875.8/s and back to 20 at 684 s. Q2 and Q8 end at
        their oracle at 0.7 (20 at 68 %, 16 at 64 %; 1.01 x and 1.00 x its slot-seconds).
        The generator-fed suite below (its tuned cluster, 1 s metric refresh) sized each query
        in one or two steps: the cost here is the Kafka lag's, which the fetch gauges have not yet told apart
        (`experiments/diagnostics/fetch-gauges/README.md`).
      - Q3 and Q8 are marked not valid by the bench's own check: their overload at 8 did not
        show at the sources within 40 s (Q8's lag stayed 0), so the start is not a fair test
        of reaction there; both end sized and keeping up.
      - Slot-seconds below the oracle's (Q1 0.88 x, Q5 0.76 x) are not savings: the job ran
        under-provisioned for 346 and 313 s while ds2 climbed.
      - **Q3 found a benchmark defect**: its first run (at e351ad7) asked the 32-slot cluster
        for 40 (22 -> 40 at 120 s, by key groups at 0.7); the adaptive scheduler could not run
        it, ds2 restored the old requirements and backed off for the rest of the run, its Join
        at 22 saturated. ds2 reads the slots a job can get and caps its targets at them, but
        the bench's timing wrapper passed only the slot-less call to the policy, so every
        benchmark ran ds2 blind to slots; no other stored run asked for more than its slots.
        Fixed (9618907: the slot-aware call is the one a policy implements) and Q3 run again
        (the row above): 8 -> 26 at 91 s, 26 -> 32 at 183 s capped at the slots the job could
        get (`SLOT_LIMIT`; 40 wanted), keeps up at 32 with the busiest subtask at 70 %, behind
        10 s, 0.90 x the slot-seconds of the oracle at 0.7 (itself capped at the 32 slots).
      - Q11 (1,833.3 bids/s at 15 ms: 40 instances at 0.7, above the 32 slots; at 4c65863,
        on the fix): 8 -> 13 -> 22 -> 32 by 374 s (capped at the slots), then the source 2 -> 1
        at 865 s; it does not keep up at the end (lag 219,804, judged in the drain after that
        late restart). Not yet looked into.
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
        partitions each source subtask reads. One run of each: no spread. Columns as in the
        headline.

        """,
        NOTES);
  }
}
