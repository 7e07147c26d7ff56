package io.ds2.core.keyed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.split.KafkaAssignment;
import io.ds2.core.split.Split;
import io.ds2.core.split.SplitAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** A source's load over its splits, and the parallelism its busiest subtask keeps up at. */
class SplitLoadTest {

  /**
   * The chosen parallelism is never above the split count; where it keeps up, its busiest subtask
   * (by the connector's assignment) is within capacity, and no smaller candidate from DS2's bound
   * keeps up; where none does, it is the split count.
   */
  @Property(tries = 500)
  void theChosenParallelismIsTheFirstFeasibleAndNeverAboveTheSplits(
      @ForAll @IntRange(min = 1, max = 3) int topics,
      @ForAll @IntRange(min = 1, max = 24) int partitionsPerTopic,
      @ForAll @DoubleRange(min = 10, max = 5000) double input,
      @ForAll @DoubleRange(min = 5, max = 800) double capacity,
      @ForAll @IntRange(min = 0, max = 1_000_000) int seed) {
    Random random = new Random(seed);
    List<Split> splits = new ArrayList<>();
    for (int t = 0; t < topics; t++) {
      String topic = "topic-" + random.nextInt(1000);
      for (int n = 0; n < partitionsPerTopic; n++) {
        splits.add(new Split(topic, n));
      }
    }
    List<SplitAssignment> kafka =
        List.copyOf(KafkaAssignment.forEveryReading(splits).subList(0, 1));
    int count = kafka.get(0).splits().size();
    // a skew a keyed producer could make, measured at one parallelism
    SplitLoad load = skewed(kafka.get(0), random, 1 + random.nextInt(count));
    int ds2 = (int) Math.ceil(input / capacity - 1e-9);
    int from = Math.min(Math.max(1, ds2), count);
    SplitLoad.Result r = load.size(kafka, input, capacity, from, count);

    assertTrue(r.parallelism() <= count, "above the split count: " + r);
    assertTrue(r.parallelism() >= from);
    if (r.feasible()) {
      assertTrue(
          busiest(load, kafka.get(0), r.parallelism(), input, r.hot()) <= capacity * 1.000001);
      for (int q = from; q < r.parallelism(); q++) {
        assertTrue(
            busiest(load, kafka.get(0), q, input, r.hot()) > capacity,
            "a smaller parallelism " + q + " keeps up: " + r);
      }
    } else {
      assertEquals(count, r.parallelism());
    }
  }

  /** The busiest subtask's load at p, computed here from scratch (hot splits' subtasks aside). */
  private static double busiest(
      SplitLoad load, SplitAssignment a, int p, double input, List<SplitLoad.HotSplit> hot) {
    double[] sum = new double[p];
    boolean[] skip = new boolean[p];
    for (int s = 0; s < load.splits(); s++) {
      sum[a.ownerOf(s, p)] += load.share(s) * input;
    }
    hot.forEach(h -> skip[a.ownerOf(h.split(), p)] = true);
    double worst = 0;
    for (int i = 0; i < p; i++) {
      worst = skip[i] ? worst : Math.max(worst, sum[i]);
    }
    return worst;
  }

  private static SplitLoad skewed(SplitAssignment a, Random random, int p) {
    int n = a.splits().size();
    double[] truth = new double[n];
    double total = 0;
    for (int s = 0; s < n; s++) {
      truth[s] = 0.2 + random.nextDouble();
      total += truth[s];
    }
    int[] owners = a.ownersAt(p);
    double[] shares = new double[p];
    for (int s = 0; s < n; s++) {
      shares[owners[s]] += truth[s] / total;
    }
    return SplitLoad.combine(n, List.of(new SubtaskShares(n, shares, 1e-3).withOwners(owners)));
  }

  /**
   * Six partitions, the first carrying half the load. Seen at 2 (three partitions each by the rule)
   * and at 3 (two each), the combined spread fits both, and at 3 the measured subtask decides.
   */
  @Test
  void observationsAtTwoParallelismsCombine() {
    List<Split> splits = new ArrayList<>();
    for (int n = 0; n < 6; n++) {
      splits.add(new Split("t", n));
    }
    SplitAssignment a = new KafkaAssignment(splits, java.util.Map.of());
    double[] truth = {0.5, 0.1, 0.1, 0.1, 0.1, 0.1};
    List<SubtaskShares> seen = new ArrayList<>();
    for (int p : new int[] {3, 2}) {
      int[] owners = a.ownersAt(p);
      double[] shares = new double[p];
      for (int s = 0; s < 6; s++) {
        shares[owners[s]] += truth[s];
      }
      seen.add(new SubtaskShares(6, shares, 1e-3).withOwners(owners));
    }
    SplitLoad load = SplitLoad.combine(6, seen);
    for (SubtaskShares o : seen) {
      assertTrue(load.misfit(o) < 1e-6, "misfit " + load.misfit(o));
    }
    assertFalse(load.assumedEven());
    // 1,000/s at 550/s a subtask: at 3 the subtask holding partition 0 needs 600/s, as measured.
    SplitLoad.Result r = load.size(List.of(a), 1000, 550, 3, 6);
    assertEquals(0.6 * 1000, load.at(3, List.of(a), 1000, 550, List.of()).busiestLoad(), 1e-6);
    assertTrue(r.hot().isEmpty() && r.feasible(), r.toString());
    assertTrue(r.parallelism() > 3, r.toString());
  }
}
