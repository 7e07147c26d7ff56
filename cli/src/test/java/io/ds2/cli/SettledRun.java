package io.ds2.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.commandline.ExitCodes;
import io.ds2.core.graph.JobGraph;
import io.ds2.core.graph.Vertex;
import io.ds2.core.window.JobSample;
import io.ds2.core.window.SubtaskSample;
import io.ds2.core.window.SubtaskSample.Counter;
import io.ds2.core.window.VertexSample;
import io.ds2.flink.FlinkRestClient;
import io.ds2.flink.JobSampler;
import io.ds2.flink.Sleeper;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.LocalFlinkCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.core.execution.JobClient;

/**
 * {@code ds2 run} on a job in a real MiniCluster from parallelism 1 until it settles (its last two
 * decisions held), then 60 s measured from the job's own counters: it keeps up if the sources'
 * backlog does not grow and no subtask of any vertex, sources' chains included, is 98 % busy,
 * unless the backlog built up before shrinks meanwhile (then busy subtasks are catching up, which
 * proves they keep up).
 */
final class SettledRun {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration SETTLE = Duration.ofMinutes(8);
  private static final Duration MEASURE = Duration.ofSeconds(60);

  private SettledRun() {}

  /** What ds2 did and where the job ended. */
  record Result(int rescales, Map<String, Integer> parallelism, String measured) {}

  /**
   * @param flink cluster settings
   * @param window ds2's window: the word count's keys cycle every 8.5 s, so a 10 s window sees some
   *     key groups twice and others once; 30 s (the default) evens that out
   * @param dir where the decision log goes
   * @param more further flags of {@code ds2 run}
   */
  static Result runUntilSettled(
      JobSpec spec, int slots, Map<String, String> flink, String window, Path dir, String... more)
      throws Exception {
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.startWithFastTimings(
            slots,
            flink,
            "settling from parallelism 1 through a few rescales, then 60 s measured, must fit in"
                + " CI's budget: rescales take effect in seconds (1 s cool-downs) and a 1 s refresh"
                + " lets the measurement start as soon as the job holds")) {
      JobClient job = cluster.submit(spec);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> job.getJobStatus().get().name().equals("RUNNING"));
      Path log = dir.resolve(spec.name() + ".jsonl");
      AtomicReference<CliRun> done = new AtomicReference<>();
      List<String> args =
          new ArrayList<>(
              List.of(
                  "run",
                  "--flink-url",
                  cluster.restUrl().toString(),
                  "--decision-log",
                  log.toString(),
                  "--window",
                  window,
                  "--warm-up",
                  "10s",
                  "--sample-interval",
                  "1s",
                  "--activation",
                  "1"));
      args.addAll(List.of(more));
      Thread ds2 = new Thread(() -> done.set(CliRun.of(args.toArray(String[]::new))));
      ds2.start();
      FlinkRestClient client = new FlinkRestClient(cluster.restUrl(), Duration.ofSeconds(10));
      JobSampler sampler =
          new JobSampler(
              client,
              job.getJobID().toHexString(),
              Clock.systemUTC(),
              JobSampler.Reads.FRESH,
              Sleeper.SYSTEM);
      double demand = spec.baseRate();
      // Settled: the last two decisions held. The 60 s measured start at the first of them (the
      // job already runs in what turns out to be its final configuration) and count only if the
      // next decision, made meanwhile, held too and nothing was rescaled; else measure again.
      long deadline = System.nanoTime() + SETTLE.toNanos();
      JobGraph graph;
      JobSample start;
      JobSample end;
      do {
        await()
            .atMost(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())))
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> lastDecisionsHeld(log, 1));
        graph = sampler.topology().graph();
        start = sampler.sample(graph);
        Thread.sleep(MEASURE.toMillis()); // the measurement itself: 60 s of counters
        end = sampler.sample(graph);
      } while (!(lastDecisionsHeld(log, 2) && sameParallelism(start, end)));
      ds2.interrupt();
      ds2.join(Duration.ofSeconds(60).toMillis());
      assertEquals(ExitCodes.OK, done.get().exitCode(), done.get().err());

      // Everything is measured and printed before anything is asserted.
      double growth = 0;
      for (Vertex v : graph.sources()) {
        growth +=
            end.vertex(v.id()).orElseThrow().pendingRecords().orElse(0)
                - start.vertex(v.id()).orElseThrow().pendingRecords().orElse(0);
      }
      StringBuilder measured = new StringBuilder(String.format("backlog %+.0f in 60 s", growth));
      Map<String, Double> busiest = new java.util.LinkedHashMap<>();
      for (Vertex v : graph.topologicalOrder()) {
        double b = busiest(start.vertex(v.id()).orElseThrow(), end.vertex(v.id()).orElseThrow());
        busiest.put(v.name(), b);
        measured.append(String.format("; %s busiest subtask %.3f", v.name(), b));
      }
      System.out.println(spec.name() + ": " + measured + ", decisions:\n" + describe(log));
      double tolerance = 0.01 * demand * MEASURE.toSeconds();
      assertTrue(growth <= tolerance, "the backlog grew: " + measured);
      for (Map.Entry<String, Double> b : busiest.entrySet()) {
        assertTrue(
            b.getValue() < 0.98 || growth < -tolerance,
            b.getKey() + " has a saturated subtask and the backlog is not shrinking: " + measured);
      }
      Result r = new Result(rescales(log), running(end, graph), measured.toString());
      System.out.println(spec.name() + ": " + r);
      return r;
    }
  }

  private static boolean sameParallelism(JobSample a, JobSample b) {
    return a.vertices().keySet().equals(b.vertices().keySet())
        && a.vertices().values().stream()
            .allMatch(
                v ->
                    b.vertex(v.vertexId())
                        .map(w -> w.parallelism() == v.parallelism())
                        .orElse(false));
  }

  private static double busiest(VertexSample a, VertexSample b) {
    assertEquals(a.parallelism(), b.parallelism(), "rescaled during the measurement");
    double worst = 0;
    for (int i = 0; i < a.subtasks().size(); i++) {
      SubtaskSample x = a.subtasks().get(i);
      SubtaskSample y = b.subtasks().get(i);
      double busy = delta(x, y, Counter.BUSY_TIME_MS);
      double all =
          busy + delta(x, y, Counter.IDLE_TIME_MS) + delta(x, y, Counter.BACK_PRESSURED_TIME_MS);
      worst = Math.max(worst, busy / all);
    }
    return worst;
  }

  private static double delta(SubtaskSample x, SubtaskSample y, Counter c) {
    return y.get(c).orElseThrow() - x.get(c).orElseThrow();
  }

  private static Map<String, Integer> running(JobSample s, JobGraph graph) {
    Map<String, Integer> p = new java.util.LinkedHashMap<>();
    for (Vertex v : graph.topologicalOrder()) {
      p.put(v.name(), s.vertex(v.id()).orElseThrow().parallelism());
    }
    return p;
  }

  /** One line per decision or rescale of the log, for the test's output. */
  private static String describe(Path log) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (JsonNode l : lines(log)) {
      if (l.get("type").asText().equals("decision")) {
        sb.append("  ").append(l.get("time").asText()).append(' ');
        sb.append(l.get("action").get("type").asText());
        for (JsonNode v : l.get("vertices")) {
          sb.append(' ')
              .append(v.get("name").asText())
              .append(' ')
              .append(v.get("current").asInt())
              .append("->")
              .append(v.get("target").asInt());
        }
        for (JsonNode v : l.get("estimate").get("vertices")) {
          JsonNode k = v.get("keySpread");
          if (k != null && !k.isNull()) {
            sb.append(
                String.format(
                    " [%s busiest %.4f at %d]",
                    v.get("name").asText(),
                    k.get("busiest").get("share").asDouble(),
                    k.get("parallelism").asInt()));
          }
        }
        sb.append('\n');
      } else {
        sb.append("  ").append(l.get("type").asText()).append(' ');
        sb.append(l.path("outcome").asText()).append('\n');
      }
    }
    return sb.toString();
  }

  private static List<JsonNode> lines(Path log) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    if (Files.exists(log)) {
      for (String line : Files.readAllLines(log)) {
        lines.add(JSON.readTree(line));
      }
    }
    return lines;
  }

  private static boolean lastDecisionsHeld(Path log, int n) throws IOException {
    List<JsonNode> decisions =
        lines(log).stream().filter(l -> l.get("type").asText().equals("decision")).toList();
    return decisions.size() >= n
        && decisions.subList(decisions.size() - n, decisions.size()).stream()
            .allMatch(d -> d.get("action").get("type").asText().equals("hold"));
  }

  private static int rescales(Path log) throws IOException {
    return (int)
        lines(log).stream()
            .filter(l -> l.get("type").asText().equals("rescale"))
            .filter(l -> l.get("outcome").asText().equals("applied"))
            .count();
  }
}
