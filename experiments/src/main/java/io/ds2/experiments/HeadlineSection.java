package io.ds2.experiments;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The headline: the fan-in job at Flink's and Kafka's defaults, every controller at target
 * utilization 0.7, three runs each on one commit of ds2's decision code, ds2 beside each peer
 * figure by figure.
 */
final class HeadlineSection {
  static final String NOTES =
      """
      Notes (2026-12-06). ds2's runs 1 and 2 at 739ae9d, run 3 at ece3271 (the same decision
      code; ece3271 only tidied a test); the Flink autoscaler's three runs at ece3271 (its code
      is the library's; the bench has capped it at the cluster's slots since 9dc9561); the DS2
      paper's policy's three runs at ece3271. Runs 1 and 2 of ds2 ran alone on the machine; the
      others beside one to three other benches on its 2 cores (ds2's run 3 measured the Orders
      source's rate per instance 0.3-0.7 % below runs 1 and 2: 145.7 and 143.5/s at x1 and x2
      against 146.1-146.8 and 144.0-144.1/s). The DS2 paper's policy's runs 2 and 3 ran beside
      three other benches and this session's own test runs: its Orders source read 139.4 and
      138.9/s per instance (run 1: 141.7/s; ds2's runs 144.4-146.5/s), 3-5 % slower, so its
      steps were sized for a slower machine than ds2's.
      - **ds2 keeps up at the end of both phases in all three runs**, behind by the SLO 69-110
        s of ~779 judged in the first phase and 0 in the second; lag peaks 5,715-10,018 and
        0-1,415 records; under-provisioned 142-157 s; 0.90-0.95 x the oracle at 0.7
        (14,490-15,422 slot-seconds); 4-6 rescales. Its first step reads the records' age
        (296/s for 400, growth capped at twice the read): 1 -> 3 at 89-91 s. At 3 the Orders
        source reads 444/s of 400/s, a 44/s surplus on a backlog over 22,000 records: runs 1
        and 3 waited the whole 3-min rescale timeout, then read 440/s as arriving (the gauge's
        fit), DS2 said 5 and the topic's 12 partitions 6 (`UNEVEN_SPLITS`): 3 -> 6 at 331-332
        s, kept to the phase's end (4 keeps it below 0.7). Run 2's source was never seen at
        its heads (6.6 s behind at its first reading, 14 s in), so it did not wait and read
        the drain: 3 -> 4 -> 6, back to 4 at 695 s; since dcc7fcf a first reading younger
        than its run counts as seen at the heads (replayed, that 3 -> 4 is gone). At x2 all
        three went to 12/1/12 in two steps; the bench marks that phase of runs 1 and 3 not valid
        (the table's median run is run 3): the source at 6 read the 800/s, so the overload (the
        Join at 6 for 8) did not show at the sources within 40 s.
      - **The Flink autoscaler keeps up at the end of both phases in its three runs** (in runs 1
        and 3 its Join ends the first phase 100 % busy, draining), behind 636-663 s in the first
        phase and 0-130 s in the second, lag peaks 136,560-244,506 and 0-247,634 records,
        under-provisioned 729-736 s: it acts once its 5-minute windows have filled and its
        source's lag says more than it read, going to 12/1/8 or 12/1/16 at 729-736 s (the
        source at 12 where 4 does at 0.7, kept: its scale-downs wait an hour by default), then
        the Join to 16 at x2 where it was at 8. It costs 1.01-1.17 x the oracle at 0.7
        (16,281-18,938 slot-seconds) against ds2's 0.90-0.95 x: ranges apart, **ds2 is ahead on
        every figure but rescales**, where the Flink autoscaler makes 2-3 against ds2's 4-6.
        Its runs on 2026-12-04's harness (below) went the same way.
      - **The DS2 paper's policy, three runs**: 1 -> 3 at 90-95 s as ds2 (the records' age),
        3 -> 6 on the split rule at 198-335 s (run 2's source, as ds2's run 2, was not waited
        for), back to 4 at 466 s in run 1 only (no scale-down delay; runs 2 and 3 stayed at 6),
        at x2 to 12 and the Join to 10-11 (DS2's even-keys bound); its x2 phase of runs 2 and 3
        is not valid, as ds2's. Behind 85-130 s by the SLO, lag peaks 11,475-21,403 records,
        under-provisioned 148-162 s, 0.92-0.98 x the oracle at 0.7 (14,823-15,932
        slot-seconds), 3-5 rescales. Against ds2 the ranges overlap on every figure but the lag
        peak, where ds2 is lower (5,715-10,018; not examined further: the paper's runs 2 and 3
        ran on the slower machine, above): no difference on slot-seconds, seconds behind,
        under-provisioned or rescales. On 2026-12-05's code (below) it was ahead of ds2 on
        slot-seconds; on this code it is not.
            """;

  private HeadlineSection() {}

  static void render(StringBuilder md, Path dir) throws IOException {
    KafkaDefaultFetchSection.section(
        md,
        dir,
        """
        ## Headline: at Flink's and Kafka's defaults, every controller at 0.7, three runs each

        The fan-in job (chained, sources sized, a Kafka topic of 12 partitions per source) on a
        cluster at Flink's defaults (10 s metric refresh, default network buffers and
        cool-downs), its consumers at Kafka's defaults (1 MiB fetched per partition), over the
        long step-up (15 min at x1, then 15 min at x2), every controller sizing for 0.7 busy:
        ds2 at its defaults otherwise (`ds2-defaults-u0.7`), the Flink autoscaler 1.10 at its
        documentation's example settings (`flink-as-1.10-doc-u0.7`) and the DS2 paper's policy
        on ds2's estimate and windows (`ds2-paper-defaults-u0.7`: act on the latest estimate once
        two windows agree, no scale-down delay, no step limits, DS2's even-keys bound for the
        keyed Join). ds2's code waits out a restart's backlog before its next window and reads a
        fresh run's records' age from its first reading (`docs/how-ds2-decides.md`). `bin/ds2-bench
        suite --feed kafka --cluster flink-defaults --scenarios fanin-step-up-long --controllers
        CONTROLLER --repeats 1,2,3 --out experiments/results/kafka-headline-catch-up`; each
        recording names the commit it ran. Each row shows the median run (median rescales, then
        slot-seconds) with the range over the runs; *slot-s / oracle* is against the 98 %-busy
        oracle, and in brackets against the oracle at the controller's own target (the fewest
        slots keeping every subtask below 0.7). The runs column says how many there are.

        """,
        NOTES);
  }
}
