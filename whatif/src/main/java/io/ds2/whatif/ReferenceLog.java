package io.ds2.whatif;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.core.graph.Edge;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.scaler.JobTopology;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.VertexSample;
import io.ds2.recording.ReadErrors;
import io.ds2.recording.RecordSource;
import io.ds2.recording.Recorded;
import io.ds2.recording.RecordingFormat;
import io.ds2.recording.RecordingFormatException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The DS2 reference implementation's offline logs (topology CSV, per-instance rates log, optional
 * source rates) read as a ds2 recording: each window of per-instance rates becomes cumulative
 * counters (records in = observed processing rate x window, busy time = records in / true
 * processing rate, ...), so the replay derives the same true rates through the live code path.
 * Source rates become explicit demands ({@link #SOURCE_RATES} in the header's config). Streams the
 * rates log, holding only windows some instance has not reported yet.
 */
public final class ReferenceLog implements RecordSource {
  /** Header config field: records/s per source vertex from the source-rates file. */
  public static final String SOURCE_RATES = "ds2SourceRates";

  // DS2 knows no max parallelism; Flink's upper bound keeps the model from capping.
  private static final int MAX_PARALLELISM = 32_768;

  private final Path ratesPath;
  private final BufferedReader rates;
  private final boolean skipBadLines;
  private final JobTopology topology;
  private final Map<String, Integer> instances;
  private final Recorded.Header header;
  private final Map<String, ArrayDeque<ReferenceRates.Line>> queued = new LinkedHashMap<>();
  private final ArrayDeque<Recorded> ready = new ArrayDeque<>();
  private final ReferenceRates.Counters counters;
  private List<ReferenceRates.Line> pendingEpoch;
  private Duration lastLength = Duration.ZERO;
  private Duration singleWindow = Duration.ofSeconds(30);
  private long line;
  private long skipped;
  private String firstSkipped;
  private boolean topologySent;
  // A window was skipped since the last one emitted: the next one starts a new run.
  private boolean skippedSince;
  private Instant runStart = Instant.EPOCH;
  private Instant firstStart;
  private boolean ended;

  private ReferenceLog(
      Path ratesPath,
      BufferedReader rates,
      boolean skipBadLines,
      JobTopology topology,
      Map<String, Integer> instances,
      ObjectNode config) {
    this.ratesPath = ratesPath;
    this.rates = rates;
    this.skipBadLines = skipBadLines;
    this.topology = topology;
    this.instances = instances;
    this.counters = new ReferenceRates.Counters(topology.graph());
    this.header =
        new Recorded.Header(
            RecordingFormat.VERSION,
            Instant.EPOCH,
            "DS2 reference log " + ratesPath,
            "ds2-reference",
            ratesPath.getFileName().toString(),
            Optional.empty(),
            Duration.ZERO,
            Optional.empty(),
            config);
  }

  /**
   * @throws RecordingFormatException if a file is missing or the topology or source rates are bad
   */
  public static ReferenceLog open(
      Path topologyCsv, Path ratesLog, Path sourceRatesCsv, boolean skipBadLines) {
    Map<String, Integer> instances = new LinkedHashMap<>();
    Map<String, String> names = new LinkedHashMap<>();
    List<Edge> edges = new ArrayList<>();
    for (ReferenceRates.CsvLine l : ReferenceRates.csv(topologyCsv, 6)) {
      String[] f = l.fields();
      for (int side = 0; side < 2; side++) {
        String id = f[side * 3];
        int n = ReferenceRates.positiveInt(f[side * 3 + 2], l.where() + ": instances of " + id);
        names.putIfAbsent(id, f[side * 3 + 1]);
        Integer old = instances.putIfAbsent(id, n);
        if (old != null && old != n) {
          throw new RecordingFormatException(
              l.where() + ": operator " + id + " has " + n + " instances here, " + old + " before");
        }
      }
      edges.add(new Edge(f[0], f[3], "UNKNOWN"));
    }
    List<Vertex> vertices = new ArrayList<>();
    names.forEach((id, name) -> vertices.add(new Vertex(id, name, MAX_PARALLELISM)));
    JobGraph graph;
    try {
      graph = JobGraph.of(vertices, edges);
    } catch (IllegalArgumentException e) {
      throw new RecordingFormatException(
          topologyCsv + ": not a valid dataflow graph: " + e.getMessage());
    }
    ObjectNode config = RecordingFormat.MAPPER.createObjectNode();
    ObjectNode given = config.putObject(SOURCE_RATES);
    if (sourceRatesCsv != null) {
      for (ReferenceRates.CsvLine l : ReferenceRates.csv(sourceRatesCsv, 2)) {
        String id = l.fields()[0];
        if (!graph.vertex(id).map(v -> graph.isSource(v.id())).orElse(false)) {
          throw new RecordingFormatException(l.where() + ": " + id + " is not a source operator");
        }
        double perInstance = ReferenceRates.rate(l.fields()[1], l.where() + ": rate of " + id);
        given.put(id, perInstance * instances.get(id));
      }
    }
    try {
      BufferedReader reader = Files.newBufferedReader(ratesLog, StandardCharsets.UTF_8);
      return new ReferenceLog(
          ratesLog,
          reader,
          skipBadLines,
          new JobTopology("ds2-reference", ratesLog.getFileName().toString(), graph),
          instances,
          config);
    } catch (NoSuchFileException e) {
      throw new RecordingFormatException(ratesLog + ": no such file");
    } catch (IOException e) {
      throw new RecordingFormatException(ratesLog + ": cannot read: " + ReadErrors.io(e));
    }
  }

  /** The header; its creation time is the first window's start once that is known. */
  @Override
  public Recorded.Header header() {
    if (pendingEpoch == null && !topologySent) {
      return header;
    }
    Instant first = firstStart == null ? start(pendingEpoch) : firstStart;
    return new Recorded.Header(
        header.version(),
        first,
        header.source(),
        header.jobId(),
        header.jobName(),
        header.flinkVersion(),
        header.interval(),
        header.metricRefresh(),
        header.config());
  }

  @Override
  public Optional<Recorded> next() {
    while (ready.isEmpty() && !ended) {
      readMore();
    }
    if (ready.isEmpty() && !topologySent && skipped > 0) {
      throw new RecordingFormatException(
          ratesPath
              + ": no window could be formed ("
              + skipped
              + " line(s) skipped; the first: "
              + firstSkipped
              + ")");
    }
    return Optional.ofNullable(ready.poll());
  }

  private void readMore() {
    String text;
    try {
      text = rates.readLine();
    } catch (IOException e) {
      throw new RecordingFormatException(ratesPath + ": cannot read: " + ReadErrors.io(e));
    }
    if (text == null) {
      ended = true;
      if (pendingEpoch != null) {
        // A log of one epoch per instance (as DS2's own tests write) is one window: its length
        // is not in the log, and rates do not depend on it; it is the replay's window.
        Duration length = lastLength.isZero() ? singleWindow : lastLength;
        try {
          checkSpread(pendingEpoch, length);
          emit(pendingEpoch, length);
        } catch (RecordingFormatException e) {
          if (!skipBadLines) {
            throw e;
          }
          skipped += pendingEpoch.size();
          firstSkipped = firstSkipped == null ? e.getMessage() : firstSkipped;
        }
      }
      return;
    }
    line++;
    if (text.isBlank() || text.strip().startsWith("#")) {
      return;
    }
    try {
      ReferenceRates.Line l = ReferenceRates.parse(text, ratesPath + ":" + line, instances);
      if (!queued.containsKey(l.operator() + "#" + l.instance())
          && queued.keySet().stream().filter(k -> k.startsWith(l.operator() + "#")).count()
              >= instances.get(l.operator())) {
        throw new RecordingFormatException(
            ratesPath
                + ":"
                + line
                + ": operator "
                + l.operator()
                + " has more than its "
                + instances.get(l.operator())
                + " instances (instance "
                + l.instance()
                + ")");
      }
      queued.computeIfAbsent(l.operator() + "#" + l.instance(), k -> new ArrayDeque<>()).add(l);
      formEpochs();
    } catch (RecordingFormatException e) {
      if (!skipBadLines) {
        throw e;
      }
      skipped++;
      firstSkipped = firstSkipped == null ? e.getMessage() : firstSkipped;
    }
  }

  /** Takes one line of every instance, while every instance has one queued. */
  private void formEpochs() {
    int all = instances.values().stream().mapToInt(Integer::intValue).sum();
    while (queued.size() == all && queued.values().stream().noneMatch(ArrayDeque::isEmpty)) {
      List<ReferenceRates.Line> epoch = new ArrayList<>();
      queued.values().forEach(q -> epoch.add(q.poll()));
      if (pendingEpoch != null) {
        Duration length = Duration.between(start(pendingEpoch), start(epoch));
        if (length.isNegative() || length.isZero()) {
          throw new RecordingFormatException(
              ratesPath
                  + ":"
                  + line
                  + ": window starting "
                  + start(epoch)
                  + " does not follow "
                  + start(pendingEpoch));
        }
        List<ReferenceRates.Line> window = pendingEpoch;
        pendingEpoch = epoch;
        lastLength = length;
        try {
          checkSpread(window, length);
        } catch (RecordingFormatException e) {
          // Skipped (if at all) as the window's lines: no window spans it, a new run follows.
          skippedSince = true;
          skipped += window.size() - 1;
          throw e;
        }
        emit(window, length);
        continue;
      }
      pendingEpoch = epoch;
    }
  }

  /** How long a log's only window is taken to last (the replay's window; 30 s unless set). */
  public void singleWindowLasts(Duration length) {
    this.singleWindow = length;
  }

  /** Instances of one window that start further apart than the window are not one window. */
  private void checkSpread(List<ReferenceRates.Line> epoch, Duration length) {
    ReferenceRates.Line latest =
        epoch.stream()
            .max(java.util.Comparator.comparing(ReferenceRates.Line::start))
            .orElseThrow();
    Duration spread = Duration.between(start(epoch), latest.start());
    if (spread.compareTo(length) > 0) {
      throw new RecordingFormatException(
          latest.where()
              + ": operator "
              + latest.operator()
              + " instance "
              + latest.instance()
              + " starts its window "
              + spread.toMillis() / 1000.0
              + " s after another instance of the same window, more than the window ("
              + length.toMillis() / 1000.0
              + " s)");
    }
  }

  private static Instant start(List<ReferenceRates.Line> epoch) {
    return epoch.stream().map(ReferenceRates.Line::start).min(Instant::compareTo).orElseThrow();
  }

  /**
   * The counters at the start of the first window, then after each window; after a window that
   * could not be formed, the next starts a new run (as after a restart), so no window spans the
   * gap.
   */
  private void emit(List<ReferenceRates.Line> epoch, Duration length) {
    Instant start = start(epoch);
    if (!topologySent) {
      firstStart = start;
      ready.add(new Recorded.Topology(start, topology, instances));
      ready.add(new Recorded.Sample(sampleAt(start)));
      topologySent = true;
    } else if (skippedSince) {
      runStart = start;
      ready.add(new Recorded.Sample(sampleAt(start)));
    }
    skippedSince = false;
    counters.add(epoch, length.toNanos() / 1e9);
    ready.add(new Recorded.Sample(sampleAt(start.plus(length))));
  }

  private JobSample sampleAt(Instant time) {
    Map<String, VertexSample> vertices = new LinkedHashMap<>();
    for (Vertex v : topology.graph().topologicalOrder()) {
      int n = instances.get(v.id());
      List<SubtaskSample> subtasks = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        subtasks.add(counters.subtask(v.id(), i));
      }
      vertices.put(
          v.id(), new VertexSample(v.id(), "RUNNING", n, subtasks, OptionalDouble.empty()));
    }
    return new JobSample(time, "RUNNING", runStart, OptionalLong.of(0), vertices);
  }

  @Override
  public long skippedLines() {
    return skipped;
  }

  @Override
  public Optional<String> firstSkipped() {
    return Optional.ofNullable(firstSkipped);
  }

  @Override
  public String describe() {
    return ratesPath.toString();
  }

  @Override
  public void close() throws IOException {
    rates.close();
  }
}
