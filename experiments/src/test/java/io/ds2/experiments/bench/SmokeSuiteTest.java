package io.ds2.experiments.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.experiments.bench.controllers.Controllers;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark's smoke suite, run by CI: the fan-in job from parallelism 1 under ds2 on a real
 * MiniCluster, measured by the harness as in the full suite. Fails if ds2 misses the oracle or
 * needs more than one rescale to reach it. On the earlier bench's cluster (1 s metric refresh and
 * cool-downs): the suite's matched controllers decide on 10 s windows, which Flink's 10 s refresh
 * would leave with one fresh reading, and CI's budget has no room for ds2's 30 s defaults.
 */
class SmokeSuiteTest {
  @TempDir Path dir;

  @Test
  void ds2ReachesTheOracleInOneStep() throws Exception {
    Scenario smoke = Scenario.smoke();
    Saso.Result r =
        ScenarioRun.run(
            smoke,
            Controllers.byName("ds2"),
            dir,
            1,
            ScenarioRun.Feed.SYNTHETIC,
            ClusterSettings.TUNED);
    Saso.Phase p = r.phases().get(0);
    assertEquals(smoke.oracle(0), p.finalParallelism(), SuiteReport.row(r));
    assertEquals(1, p.steps(), SuiteReport.row(r));
    assertEquals(0, r.notApplied(), SuiteReport.row(r));
    assertEquals(0.0, p.accuracyError(), SuiteReport.row(r));
    assertTrue(r.slotSeconds() > 0 && r.decisions() >= 2, SuiteReport.row(r));
    for (String ext : new String[] {".jsonl.gz", ".csv", ".png"}) {
      assertTrue(Files.size(dir.resolve("fanin-steady__ds2" + ext)) > 0, ext);
    }
  }
}
