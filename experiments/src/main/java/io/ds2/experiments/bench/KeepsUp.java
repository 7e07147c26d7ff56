package io.ds2.experiments.bench;

import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.SubtaskSample.Counter;
import io.ds2.core.window.VertexSample;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Whether a job kept up at the end of a load phase, from its own counters over the phase's last 60
 * s (or since its last restart, if that is later and at least 20 s ago): the sources' backlog not
 * growing by more than 1 % of the demand, and no subtask of an operator 98 % busy or more — unless
 * the backlog shrinks by more than that (busy subtasks are then draining what built up before,
 * which proves they keep up). The busy test is what catches an overload that sits in network
 * buffers (tiny records): the sources then still emit all of the demand and no backlog grows.
 *
 * <p>The backlog grows by at least what arrives less what the sources read: the scenario's demand
 * (the producers keep to it; a run records when they fall behind) less the records read per second
 * of each source subtask's own clock. That, not the sources' lag gauge alone, is the truth a
 * verdict rests on: a Kafka consumer at its default fetch holds thousands of fetched records its
 * lag does not count, and its gauge then grows at about what the source reads, whatever arrives.
 */
public final class KeepsUp {
  /** Busy fraction from which a subtask counts as saturated. */
  public static final double SATURATED = 0.98;

  static final double SPAN_SECONDS = 60;
  static final double MIN_SPAN_SECONDS = 20;
  static final double BACKLOG_TOLERANCE = 0.01;

  private KeepsUp() {}

  /** One recorded poll, {@code t} seconds after the run's start. */
  record Sampled(double t, JobSample sample) {}

  /**
   * @param keepsUp empty when the phase's end has no 20 s of counters since the last restart
   * @param seconds the span measured
   * @param busiestVertex the operator with the busiest subtask
   * @param busiest that subtask's busy fraction
   * @param throughput what the sources read (emitted, where reads are not counted) over the demand
   * @param backlogGrowth records/s the sources' backlog grew by (negative: drained)
   */
  public record Verdict(
      Boolean keepsUp,
      double seconds,
      String busiestVertex,
      double busiest,
      double throughput,
      double backlogGrowth) {
    static Verdict unknown(double seconds) {
      return new Verdict(null, seconds, "", 0, 0, 0);
    }
  }

  /**
   * @param samples the run's RUNNING polls in time order
   * @param end the phase's end, seconds after the start
   * @param demand records/s the sources had to emit in the phase
   * @param names vertex names by id
   * @param sources ids of the source vertices
   */
  static Verdict at(
      List<Sampled> samples,
      double end,
      double demand,
      Map<String, String> names,
      Set<String> sources) {
    return at(samples, end, demand, names, sources, Map.of());
  }

  /**
   * As above, each source judged against its own share of the demand ({@code shares}, by vertex id,
   * summing to 1): one source draining a backlog after a restart does not cover for another falling
   * behind. Without a share for every source, they are judged together.
   */
  static Verdict at(
      List<Sampled> samples,
      double end,
      double demand,
      Map<String, String> names,
      Set<String> sources,
      Map<String, Double> shares) {
    Sampled b = null;
    for (Sampled s : samples) {
      if (s.t() <= end) {
        b = s;
      }
    }
    if (b == null) {
      return Verdict.unknown(0);
    }
    Sampled a = null;
    for (Sampled s : samples) {
      if (s.t() >= b.t() - SPAN_SECONDS
          && s.t() <= b.t()
          && s.sample().runningSince().equals(b.sample().runningSince())
          && sameParallelism(s.sample(), b.sample())
          && comparable(s.sample(), b.sample())) {
        a = s;
        break;
      }
    }
    double span = a == null ? 0 : b.t() - a.t();
    if (span < MIN_SPAN_SECONDS) {
      return Verdict.unknown(span);
    }
    String busiestVertex = "";
    double busiest = 0;
    double readRate = 0;
    double backlog = 0;
    boolean each = shares.keySet().containsAll(sources);
    double behind = 0; // of the sources judged each against its share: growth of those growing
    double worst = Double.NEGATIVE_INFINITY; // the largest growth over its tolerance, per source
    for (VertexSample y : b.sample().vertices().values()) {
      VertexSample x = a.sample().vertex(y.vertexId()).orElseThrow();
      if (sources.contains(y.vertexId())) {
        double sourceRate = readRate(x, y, span);
        readRate += sourceRate;
        double gauge = y.pendingRecords().orElse(0) - x.pendingRecords().orElse(0);
        backlog += gauge;
        if (each) {
          double share = demand * shares.get(y.vertexId());
          double growth = Math.max(gauge / span, share - sourceRate);
          behind += Math.max(0, growth);
          worst = Math.max(worst, growth - BACKLOG_TOLERANCE * share);
        }
      }
      // A source's chain is as likely to be saturated as any vertex (it reads and parses).
      for (int i = 0; i < y.subtasks().size(); i++) {
        double busy = busy(x.subtasks().get(i), y.subtasks().get(i));
        if (busy > busiest) {
          busiest = busy;
          busiestVertex = names.getOrDefault(y.vertexId(), y.vertexId());
        }
      }
    }
    double growth = Math.max(backlog / span, sources.isEmpty() ? 0 : demand - readRate);
    double tolerance = BACKLOG_TOLERANCE * demand;
    boolean keepsUp = growth <= tolerance && (busiest < SATURATED || growth < -tolerance);
    if (each && !sources.isEmpty() && worst > 0) {
      // A source behind its own share: the backlog grows there whatever the others drain.
      growth = behind;
      keepsUp = false;
    }
    return new Verdict(
        keepsUp, span, busiestVertex, busiest, demand > 0 ? readRate / demand : 1, growth);
  }

  /**
   * Whether {@code x}'s metrics are those of the run {@code y} measures: every source backlog
   * {@code y} has is there too, and no counter is ahead of {@code y}'s. Right after a restart,
   * Flink's metric store (refreshed every 10 s by default) still answers with the old run's
   * counters and no backlog gauge; measured from such a poll, a job that keeps up looks stalled.
   */
  static boolean comparable(JobSample x, JobSample y) {
    for (VertexSample w : y.vertices().values()) {
      VertexSample v = x.vertex(w.vertexId()).orElse(null);
      if (v == null
          || (w.pendingRecords().isPresent() && v.pendingRecords().isEmpty())
          || v.subtasks().size() != w.subtasks().size()) {
        return false;
      }
      for (int i = 0; i < w.subtasks().size(); i++) {
        for (Counter c : Counter.values()) {
          OptionalDouble a = v.subtasks().get(i).get(c);
          OptionalDouble b = w.subtasks().get(i).get(c);
          if (a.isPresent() && b.isPresent() && a.getAsDouble() > b.getAsDouble()) {
            return false;
          }
        }
      }
    }
    return true;
  }

  private static boolean sameParallelism(JobSample x, JobSample y) {
    return x.vertices().values().stream()
        .allMatch(
            v -> y.vertex(v.vertexId()).map(w -> w.parallelism() == v.parallelism()).orElse(false));
  }

  /** A subtask's busy share of its time between two readings. */
  static double busy(SubtaskSample x, SubtaskSample y) {
    double busy = delta(x, y, Counter.BUSY_TIME_MS);
    double all =
        busy + delta(x, y, Counter.IDLE_TIME_MS) + delta(x, y, Counter.BACK_PRESSURED_TIME_MS);
    return all > 0 ? busy / all : 0;
  }

  /**
   * Records/s a source vertex took in between two readings of the same run: read where its operator
   * counts them (its chain may emit more, or nothing), else emitted; per second of each subtask's
   * own clock, since its counters were read at a metric refresh, up to 10 s off the poll's time
   * ({@code span}, used where a subtask reports no clock).
   */
  static double readRate(VertexSample x, VertexSample y, double span) {
    double rate = 0;
    for (int i = 0; i < Math.min(x.subtasks().size(), y.subtasks().size()); i++) {
      double read = delta(x.subtasks().get(i), y.subtasks().get(i), Counter.RECORDS_IN);
      double taken =
          read > 0 ? read : delta(x.subtasks().get(i), y.subtasks().get(i), Counter.RECORDS_OUT);
      double clock = elapsedSeconds(x.subtasks().get(i), y.subtasks().get(i));
      rate += taken / (clock > 0 ? clock : span);
    }
    return rate;
  }

  /** The time that passed between two readings of a subtask, by its busy, idle and blocked time. */
  private static double elapsedSeconds(SubtaskSample x, SubtaskSample y) {
    return (delta(x, y, Counter.BUSY_TIME_MS)
            + delta(x, y, Counter.IDLE_TIME_MS)
            + delta(x, y, Counter.BACK_PRESSURED_TIME_MS))
        / 1000;
  }

  private static double delta(SubtaskSample x, SubtaskSample y, Counter c) {
    OptionalDouble a = x.get(c);
    OptionalDouble b = y.get(c);
    return a.isPresent() && b.isPresent() ? Math.max(0, b.getAsDouble() - a.getAsDouble()) : 0;
  }
}
