package io.ds2.core.policy;

import io.ds2.core.estimate.Estimate;
import io.ds2.core.estimate.SourceDemand;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.keyed.SubtaskShares;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexObservation;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A job that falls behind although every vertex is sized: a source is held back by back-pressure
 * and emits less than arrives, while no subtask downstream of it is saturated ({@value
 * SubtaskShares#SATURATED_BUSY} busy) or as busy as the target utilization allows. Busy time then
 * overstates what the job can do: with small network buffers and round-robin channels, a sender
 * blocks on whichever receiver is momentarily full, so a chain of vertices 84-92 % busy kept a
 * Kafka source 99 % back-pressured here, 7 % short of its input. The busiest such subtask's busy
 * ratio, less a margin, is then the utilization the job can really be run at.
 *
 * @param source the lagging source's name
 * @param arrival records/s arriving at it (its demand as measured)
 * @param output records/s it emitted
 * @param backPressured its back-pressured ratio
 * @param busiest the busiest subtask downstream of it ({@code vertex name, subtask})
 * @param busiestRatio that subtask's busy ratio over the window
 * @param utilization what to size for from now on
 */
record CapacityShortfall(
    String source,
    double arrival,
    double output,
    double backPressured,
    String busiest,
    double busiestRatio,
    double utilization) {
  /** A source emitting less than this fraction of what arrives is falling behind. */
  static final double KEEPS_UP = 0.98;

  /** A source back-pressured at least this much is held back by the job, not by its own work. */
  static final double HELD_BACK = 0.5;

  /** Sized this far below the busy ratio at which the job fell behind. */
  static final double MARGIN = 0.05;

  /** Never below: a job falling behind with every subtask less busy has some other problem. */
  static final double FLOOR = 0.5;

  /**
   * Windows, of the last {@value #OF_WINDOWS} at the same parallelism, that must show it before
   * anything is learnt: one window's output and arrival can be a few percent apart for a while
   * after a rescale (a backlog drained through a stale gauge); a job really short shows it again,
   * though a marginal one (2 % short) not in every window.
   */
  static final int CONFIRM_WINDOWS = 2;

  static final int OF_WINDOWS = 3;

  /**
   * The shortfall this window shows, if any: the first lagging, held-back source (in the graph's
   * order) whose downstream subtasks all ran below the estimate's target utilization.
   */
  static Optional<CapacityShortfall> of(JobGraph graph, Estimate estimate) {
    double target = estimate.targetUtilization();
    for (Vertex s : graph.sources()) {
      SourceDemand d = estimate.demands().get(s.id());
      Optional<VertexObservation> obs = estimate.window().vertex(s.id());
      if (d == null || d.basis() != SourceDemand.Basis.BACKLOG || obs.isEmpty()) {
        continue;
      }
      double arrival = d.currentRate();
      double output = obs.get().observedSourceRate();
      double bp = obs.get().backPressuredRatio().orElse(0);
      if (arrival <= 0 || output >= KEEPS_UP * arrival || arrival - output < 1 || bp < HELD_BACK) {
        continue;
      }
      Busiest b = busiestDownstream(graph, estimate, s);
      if (b == null || b.ratio >= Math.min(target, SubtaskShares.SATURATED_BUSY)) {
        // A saturated subtask (or one at its target) explains the shortfall: the estimate sizes
        // it, or fails to (an uneven input it does not model), but nothing is learnt about busy
        // time from it.
        continue;
      }
      // In hundredths: a utilization the decision can state as it is used.
      double learnt = Math.max(FLOOR, Math.floor((b.ratio - MARGIN) * 100 + 1e-9) / 100);
      if (learnt >= target) {
        continue;
      }
      return Optional.of(
          new CapacityShortfall(s.name(), arrival, output, bp, b.name, b.ratio, learnt));
    }
    return Optional.empty();
  }

  private record Busiest(String name, double ratio) {}

  private static Busiest busiestDownstream(JobGraph graph, Estimate estimate, Vertex source) {
    Set<String> seen = new HashSet<>();
    Deque<String> next = new ArrayDeque<>();
    next.add(source.id());
    Busiest best = null;
    while (!next.isEmpty()) {
      String id = next.poll();
      for (Edge e : graph.outputsOf(id)) {
        if (!seen.add(e.to())) {
          continue;
        }
        next.add(e.to());
        Optional<VertexObservation> o = estimate.window().vertex(e.to());
        if (o.isEmpty()) {
          continue;
        }
        for (SubtaskSample st : o.get().subtaskDeltas()) {
          double ratio = st.busyRatio();
          if (st.reportedTimeMs() > 0 && (best == null || ratio > best.ratio)) {
            String name = graph.vertex(e.to()).map(Vertex::name).orElse(e.to());
            best = new Busiest(name + " subtask " + st.subtask(), ratio);
          }
        }
      }
    }
    return best;
  }

  /**
   * For the decision: what was seen and what is learnt.
   *
   * @param seen windows of the last {@value #OF_WINDOWS} that showed it, this one included
   */
  String describe(double target, int seen) {
    return String.format(
        Locale.ROOT,
        "%s emits %.1f of %.1f records/s arriving (back-pressured %.0f %%) although every vertex"
            + " is sized for target utilization %.2f and the busiest subtask, %s, is %.0f %% busy:"
            + " busy time overstates the job's capacity; %s",
        source,
        output,
        arrival,
        100 * backPressured,
        target,
        busiest,
        100 * busiestRatio,
        seen >= CONFIRM_WINDOWS
            ? String.format(Locale.ROOT, "sizing for %.2f from the next window", utilization)
            : String.format(
                Locale.ROOT,
                "%d of the last %d windows; at %d, sizing for %.2f",
                seen,
                OF_WINDOWS,
                CONFIRM_WINDOWS,
                utilization));
  }
}
