package io.ds2.flink;

import com.fasterxml.jackson.databind.JavaType;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.scaler.MetricSource;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SourceFetch;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.SubtaskSample.Counter;
import io.ds2.core.window.VertexSample;
import io.ds2.flink.FlinkRestException.Kind;
import io.ds2.flink.dto.JobDetails;
import io.ds2.flink.dto.MetricValue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Polls one job: its state and every vertex's per-subtask cumulative counters, plus a source's
 * {@code pendingRecords} and how old the records it emits are ({@code currentEmitEventTimeLag})
 * and, for a KafkaSource, its consumer's fetch gauges ({@link SourceFetch}). Metric names are
 * discovered before they are requested (Flink answers nothing for a request naming a missing
 * metric) and re-discovered after a restart. Metrics are read prime-then-read against Flink's
 * lazily refreshed store ({@link MetricStore}).
 */
public final class JobSampler implements MetricSource {
  /** Whether a poll may return what Flink's store holds now, or waits for fresh values. */
  public enum Reads {
    /**
     * The newest values without waiting for a refresh that is not due: polls between refreshes
     * repeat the last values, which the window builder recognises (the live loop, 2 s polls).
     */
    LATEST,
    /**
     * Every poll waits until a refresh is due, starts it and reads its values (the recorder: each
     * line a new reading).
     */
    FRESH
  }

  // Keeps request URLs short for high parallelism.
  private static final int IDS_PER_REQUEST = 60;

  private final FlinkRestClient client;
  private final String jobId;
  private final Clock clock;
  private final JavaType metricList;
  private final Map<String, MetricNames> names = new HashMap<>();
  private final SplitListing splits;
  private final Reads reads;
  private final Sleeper sleeper;
  private Instant namesFor = Instant.MIN;
  private MetricStore store;
  // The priming request settle() sent, and when its refresh has landed; the next sample reads it.
  private Primed settling;
  private Instant settledAt;

  public JobSampler(FlinkRestClient client, String jobId, Clock clock) {
    this(client, jobId, clock, Reads.LATEST, Sleeper.SYSTEM);
  }

  /**
   * @param sleeper waits for Flink's store to refresh (interruptible; an interrupt reads at once)
   */
  public JobSampler(
      FlinkRestClient client, String jobId, Clock clock, Reads reads, Sleeper sleeper) {
    this.client = client;
    this.jobId = jobId;
    this.clock = clock;
    this.reads = reads;
    this.sleeper = sleeper;
    this.metricList =
        client.mapper().getTypeFactory().constructCollectionType(List.class, MetricValue.class);
    this.splits = new SplitListing(client, jobId, metricList, clock);
  }

  @Override
  public String jobId() {
    return jobId;
  }

  /**
   * The parallelism of every vertex (by id) if the job and all its vertices are RUNNING; empty
   * while it is restarting or rescaling.
   */
  public Optional<Map<String, Integer>> runningParallelism() {
    JobDetails d = details();
    if (!"RUNNING".equals(d.state())
        || d.vertices().stream().anyMatch(v -> !"RUNNING".equals(v.status()))) {
      return Optional.empty();
    }
    Map<String, Integer> p = new java.util.TreeMap<>();
    d.vertices().forEach(v -> p.put(v.id(), v.parallelism()));
    return Optional.of(p);
  }

  @Override
  public JobTopology topology() {
    return JobTopologies.from(details(), client.baseUrl() + "/jobs/" + jobId);
  }

  /**
   * How often Flink refreshes the metrics this sampler reads ({@code metrics.fetcher
   * .update-interval} from the cluster's configuration, Flink's default where it does not say).
   */
  @Override
  public Optional<Duration> metricRefresh() {
    return Optional.of(store().refresh());
  }

  private MetricStore store() {
    if (store == null) {
      store = MetricStore.discover(client);
    }
    return store;
  }

  /**
   * Job details; every such request also asks Flink to refresh its metric store, so it is noted as
   * a prime ({@link MetricStore#primed}). Callers that go on to read metrics wait for the refresh
   * first; status and parallelism come from the job itself and need no wait.
   */
  private JobDetails details() {
    return primedDetails().job();
  }

  private record Primed(JobDetails job, Duration refreshLandsIn) {}

  private Primed primedDetails() {
    Instant sent = clock.instant();
    JobDetails d = client.get("/jobs/" + jobId, JobDetails.class);
    if (d.state() == null) {
      throw new FlinkRestException(
          Kind.MALFORMED_RESPONSE, "GET " + client.baseUrl() + "/jobs/" + jobId + " has no state");
    }
    // Asked after the first answer, so a broken endpoint fails on the call the user knows.
    return new Primed(d, store().primed(sent));
  }

  /**
   * One poll. While the job is not RUNNING only its state is returned (no vertex metrics), which is
   * enough for a window to be refused.
   *
   * @throws FlinkRestException if a vertex of {@code graph} is gone (the graph changed)
   */
  @Override
  public JobSample sample(JobGraph graph) {
    Primed primed = settling;
    if (primed != null) {
      pause(left());
      settling = null;
    } else {
      if (reads == Reads.FRESH && store != null) {
        pause(store.untilRefreshDue(clock.instant()));
      }
      primed = primedDetails();
      pause(primed.refreshLandsIn());
    }
    JobDetails d = primed.job();
    Instant time = clock.instant();
    Map<String, Long> ts = d.timestamps() == null ? Map.of() : d.timestamps();
    Instant runningSince = Instant.ofEpochMilli(ts.getOrDefault("RUNNING", 0L));
    if (!"RUNNING".equals(d.state())) {
      return new JobSample(time, d.state(), runningSince, OptionalLong.empty(), Map.of());
    }
    if (!runningSince.equals(namesFor)) {
      names.clear();
      splits.clear();
      namesFor = runningSince;
    }
    Map<String, JobDetails.Vertex> byId = new HashMap<>();
    d.vertices().forEach(v -> byId.put(v.id(), v));
    Map<String, VertexSample> vertices = new LinkedHashMap<>();
    for (Vertex v : graph.topologicalOrder()) {
      JobDetails.Vertex dv = byId.get(v.id());
      if (dv == null) {
        throw new FlinkRestException(
            Kind.METRICS_UNAVAILABLE,
            "vertex "
                + v.name()
                + " ("
                + v.id()
                + ") is no longer part of job "
                + jobId
                + ": the job graph changed");
      }
      vertices.put(v.id(), sampleVertex(dv, graph.isSource(v.id())));
    }
    return new JobSample(time, d.state(), runningSince, restarts(), vertices);
  }

  /**
   * The waits {@link #sample} would sleep, one answer at a time: for fresh reads, until a refresh
   * is due; then the job-details request that starts it, and until its values have landed.
   */
  @Override
  public Duration settle() {
    if (settling != null) {
      return left();
    }
    if (reads == Reads.FRESH && store != null) {
      Duration due = store.untilRefreshDue(clock.instant());
      if (!due.isZero()) {
        return due;
      }
    }
    settling = primedDetails();
    settledAt = clock.instant().plus(settling.refreshLandsIn());
    return left();
  }

  private Duration left() {
    Duration left = Duration.between(clock.instant(), settledAt);
    return left.isNegative() ? Duration.ZERO : left;
  }

  private VertexSample sampleVertex(JobDetails.Vertex v, boolean source) {
    MetricNames known = names.get(v.id());
    if (known == null || !known.complete(source)) {
      known = discover(v.id());
      names.put(v.id(), known);
    }
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < v.parallelism(); i++) {
      for (Counter c : known.counters()) {
        ids.add(i + "." + c.flinkName());
      }
      int subtask = i;
      known.pendingRecords().ifPresent(p -> ids.add(subtask + "." + p));
      known.sourceRecordsIn().ifPresent(p -> ids.add(subtask + "." + p));
      known.emitLag().ifPresent(p -> ids.add(subtask + "." + p));
      known
          .fetches()
          .ifPresent(
              p -> {
                for (SourceFetch.Gauge g : SourceFetch.Gauge.values()) {
                  ids.add(subtask + "." + p + g.clientName());
                }
              });
    }
    Map<String, OptionalDouble> values =
        fetch("/jobs/" + jobId + "/vertices/" + v.id() + "/metrics", ids);
    List<SubtaskSample> subtasks = new ArrayList<>();
    List<SourceFetch> fetches = new ArrayList<>();
    List<OptionalDouble> emitLag = new ArrayList<>();
    double pending = 0;
    boolean pendingComplete = known.pendingRecords().isPresent();
    for (int i = 0; i < v.parallelism(); i++) {
      String p = i + ".";
      subtasks.add(
          new SubtaskSample(
              i,
              known.sourceRecordsIn().isPresent()
                  ? values.getOrDefault(p + known.sourceRecordsIn().get(), OptionalDouble.empty())
                  : value(values, p, Counter.RECORDS_IN),
              value(values, p, Counter.RECORDS_OUT),
              value(values, p, Counter.BUSY_TIME_MS),
              value(values, p, Counter.IDLE_TIME_MS),
              value(values, p, Counter.BACK_PRESSURED_TIME_MS)));
      if (pendingComplete) {
        OptionalDouble sp =
            values.getOrDefault(p + known.pendingRecords().get(), OptionalDouble.empty());
        pendingComplete = sp.isPresent();
        pending += sp.orElse(0);
      }
      if (known.fetches().isPresent()) {
        OptionalDouble[] byGauge = new OptionalDouble[SourceFetch.Gauge.values().length];
        for (SourceFetch.Gauge g : SourceFetch.Gauge.values()) {
          byGauge[g.ordinal()] =
              values.getOrDefault(
                  p + known.fetches().get() + g.clientName(), OptionalDouble.empty());
        }
        fetches.add(SourceFetch.of(byGauge));
      }
      if (known.emitLag().isPresent()) {
        OptionalDouble lag = values.getOrDefault(p + known.emitLag().get(), OptionalDouble.empty());
        // Flink answers -1 until a record with a timestamp has been emitted; a negative lag
        // (a producer's clock ahead of the job's) says nothing either.
        emitLag.add(lag.isPresent() && lag.getAsDouble() >= 0 ? lag : OptionalDouble.empty());
      }
    }
    return new VertexSample(
        v.id(),
        v.status(),
        v.parallelism(),
        subtasks,
        pendingComplete ? OptionalDouble.of(pending) : OptionalDouble.empty(),
        known.splits().flatMap(prefix -> splits.of(v.id(), v.parallelism(), prefix)),
        fetches,
        emitLag);
  }

  private static OptionalDouble value(
      Map<String, OptionalDouble> values, String prefix, Counter c) {
    return values.getOrDefault(prefix + c.flinkName(), OptionalDouble.empty());
  }

  private MetricNames discover(String vertexId) {
    List<MetricValue> available =
        client.get("/jobs/" + jobId + "/vertices/" + vertexId + "/subtasks/metrics", metricList);
    return MetricNames.of(available.stream().map(MetricValue::id).toList());
  }

  private void pause(Duration d) {
    if (d.isZero()) {
      return;
    }
    try {
      sleeper.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // read now; the caller sees the interrupt
    }
  }

  private OptionalLong restarts() {
    Map<String, OptionalDouble> v = fetch("/jobs/" + jobId + "/metrics", List.of("numRestarts"));
    OptionalDouble r = v.getOrDefault("numRestarts", OptionalDouble.empty());
    return r.isPresent() ? OptionalLong.of((long) r.getAsDouble()) : OptionalLong.empty();
  }

  /** GETs metric values by id; NaN, negative and absent map to empty, non-numbers are malformed. */
  private Map<String, OptionalDouble> fetch(String path, List<String> ids) {
    Map<String, OptionalDouble> result = new HashMap<>();
    for (int from = 0; from < ids.size(); from += IDS_PER_REQUEST) {
      List<String> chunk = ids.subList(from, Math.min(ids.size(), from + IDS_PER_REQUEST));
      String query = path + "?get=" + String.join(",", chunk);
      List<MetricValue> values = client.get(query, metricList);
      for (MetricValue m : values) {
        if (m == null || m.id() == null) {
          continue;
        }
        result.put(m.id(), parse(m, query));
      }
    }
    return result;
  }

  private OptionalDouble parse(MetricValue m, String query) {
    if (m.value() == null) {
      return OptionalDouble.empty();
    }
    try {
      double d = Double.parseDouble(m.value());
      // Counters and backlogs are never negative: such a value is as unusable as NaN.
      return Double.isFinite(d) && d >= 0 ? OptionalDouble.of(d) : OptionalDouble.empty();
    } catch (NumberFormatException e) {
      throw new FlinkRestException(
          Kind.MALFORMED_RESPONSE,
          "GET "
              + client.baseUrl()
              + query
              + ": metric "
              + m.id()
              + " has non-numeric value '"
              + m.value()
              + "'");
    }
  }
}
