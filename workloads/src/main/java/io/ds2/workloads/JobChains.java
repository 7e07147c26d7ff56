package io.ds2.workloads;

import io.ds2.workloads.JobSpec.OperatorSpec;
import io.ds2.workloads.JobSpec.SourceSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;

/**
 * The vertices Flink makes of a {@link JobSpec} and the oracle of each. With chaining on (Flink's
 * default) an operator joins its input's vertex when Flink chains it: one input, not keyed (a HASH
 * edge never chains), at the same parallelism (and the job not {@link JobSpec#unchained}). A source
 * chains with what follows it, so a typical job has two vertices: {@code Source: S -> Parse} and
 * {@code Count -> Sink}.
 */
public final class JobChains {
  private JobChains() {}

  /**
   * One job vertex.
   *
   * @param vertexName Flink's name for it: its operators joined by {@code " -> "}
   * @param members the spec names of its operators, head first (the head may be a source)
   * @param sourceHead whether its head is a source
   * @param parallelism its initial parallelism
   */
  public record Chain(
      String vertexName, List<String> members, boolean sourceHead, int parallelism) {
    public Chain {
      members = List.copyOf(members);
    }

    public String head() {
      return members.get(0);
    }
  }

  /** The job's vertices, sources' chains first, then in the spec's order of operators. */
  public static List<Chain> of(JobSpec spec) {
    Map<String, List<String>> chainOf = new LinkedHashMap<>(); // head -> members
    Map<String, String> headOf = new HashMap<>();
    Map<String, Integer> parallelism = new HashMap<>();
    Map<String, Integer> consumers = new HashMap<>();
    for (OperatorSpec op : spec.operators()) {
      op.inputs().forEach(i -> consumers.merge(i, 1, Integer::sum));
    }
    for (SourceSpec s : spec.sources()) {
      chainOf.put(s.name(), new ArrayList<>(List.of(s.name())));
      headOf.put(s.name(), s.name());
      parallelism.put(s.name(), s.parallelism());
    }
    for (OperatorSpec op : spec.operators()) {
      parallelism.put(op.name(), op.parallelism());
      String in = op.inputs().get(0);
      boolean chains =
          spec.chaining()
              && !op.keyed()
              && op.inputs().size() == 1
              && parallelism.get(in) == op.parallelism()
              && consumers.get(in) == 1; // a branching chain is not modelled: it stays apart
      if (chains) {
        String head = headOf.get(in);
        chainOf.get(head).add(op.name());
        headOf.put(op.name(), head);
      } else {
        chainOf.put(op.name(), new ArrayList<>(List.of(op.name())));
        headOf.put(op.name(), op.name());
      }
    }
    List<Chain> chains = new ArrayList<>();
    chainOf.forEach(
        (head, members) -> {
          boolean source = spec.source(head).isPresent();
          List<String> names = new ArrayList<>();
          for (int i = 0; i < members.size(); i++) {
            names.add(JobSpec.vertexName(members.get(i), source && i == 0));
          }
          chains.add(new Chain(String.join(" -> ", names), members, source, parallelism.get(head)));
        });
    return chains;
  }

  /** {@link JobSpec#oracle(double)}: per vertex name, in the order of {@link #of}. */
  static Map<String, Integer> oracle(JobSpec spec, double rateFactor) {
    Map<String, Double> in = spec.inputRates(rateFactor);
    Map<String, Integer> result = new LinkedHashMap<>();
    // Each vertex's split of its output over its subtasks at its oracle parallelism.
    Map<String, double[]> split = new HashMap<>();
    for (Chain c : of(spec)) {
      double headIn =
          c.sourceHead()
              ? spec.source(c.head()).orElseThrow().schedule().rateAt(0) * rateFactor
              : in.get(c.head());
      IntToDoubleFunction loadAt = loadOf(spec, c, headIn);
      int p;
      if (c.sourceHead()) {
        int splits = spec.source(c.head()).orElseThrow().splits();
        p = KeyedOracle.smallestKeepingUpSplits(loadAt, splits);
        split.put(c.vertexName(), splitShares(splits, p));
      } else {
        OperatorSpec head = spec.operator(c.head());
        int m = head.maxParallelism();
        if (head.keyed()) {
          double[] shares = head.keys().keyGroupShares(m);
          p = KeyedOracle.smallestKeepingUp(loadAt, shares, m);
          split.put(c.vertexName(), KeyedOracle.subtaskShares(shares, p));
        } else if (forward(spec, head)) {
          double[] producers = split.get(spec.vertexOf(head.inputs().get(0)));
          p = KeyedOracle.smallestKeepingUpPointwise(loadAt, producers, m);
          split.put(c.vertexName(), KeyedOracle.pointwiseShares(producers, p));
        } else {
          p = KeyedOracle.smallestKeepingUp(loadAt, null, m);
          split.put(c.vertexName(), even(p));
        }
      }
      result.put(c.vertexName(), p);
    }
    return result;
  }

  /** Instances the vertex needs at parallelism p (before its busiest subtask's share). */
  private static IntToDoubleFunction loadOf(JobSpec spec, Chain c, double headIn) {
    List<double[]> ops = new ArrayList<>(); // {rate into it, cost ms, alpha}
    double rate = headIn;
    for (String member : c.members()) {
      if (spec.source(member).isPresent()) {
        continue; // emitting costs next to nothing: the chained operators are the load
      }
      OperatorSpec op = spec.operator(member);
      ops.add(new double[] {rate, op.costMs(), op.alpha()});
      rate *= op.selectivity();
    }
    return p -> {
      double load = 0;
      for (double[] o : ops) {
        load += o[0] * o[1] / 1000 * (1 + o[2] * (p - 1));
      }
      return load;
    };
  }

  /**
   * Whether Flink connects the operator's input FORWARD between two vertices: one unkeyed input
   * from a vertex started at the same parallelism that did not chain (chaining off). It stays
   * FORWARD, and so pointwise, when a rescale makes the parallelisms differ.
   */
  private static boolean forward(JobSpec spec, OperatorSpec op) {
    if (spec.chaining() || op.keyed() || op.inputs().size() != 1) {
      return false;
    }
    String in = op.inputs().get(0);
    int upstream =
        spec.source(in)
            .map(SourceSpec::parallelism)
            .orElseGet(() -> spec.operator(in).parallelism());
    return upstream == op.parallelism();
  }

  /** Each subtask's share of n even splits dealt out in turn at p. */
  private static double[] splitShares(int splits, int p) {
    double[] w = new double[p];
    for (int s = 0; s < splits; s++) {
      w[s % p] += 1.0 / splits;
    }
    return w;
  }

  private static double[] even(int n) {
    double[] w = new double[n];
    Arrays.fill(w, 1.0 / n);
    return w;
  }
}
