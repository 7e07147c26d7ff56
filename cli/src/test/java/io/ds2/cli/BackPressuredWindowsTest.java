package io.ds2.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ds2.commandline.ExitCodes;
import io.ds2.core.options.Ds2Options;
import io.ds2.testkit.Pauses;
import io.ds2.workloads.JobSpec;
import io.ds2.workloads.JobSpec.OperatorSpec;
import io.ds2.workloads.JobSpec.SourceSpec;
import io.ds2.workloads.LocalFlinkCluster;
import io.ds2.workloads.source.RateSchedule;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPInputStream;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job an autoscaler exists for, at ds2's defaults: Parse is overloaded 2.4x, small network
 * buffers carry the back-pressure to the source (backlog growing), and Enrich between them is
 * back-pressured too. Live {@code recommend} gets a clean window within warm-up + window + 2 polls
 * every time (no busy-time "restart"), and a 200 s {@code record} at its default interval replays
 * at defaults into windows that recommend what live {@code recommend} did: the oracle. The ten
 * recommends run in three lanes (about 150 s); the replay decides a window every 40 s (a 30 s
 * window on 10 s polls) from 60 s on, so four windows by 180 s, with two polls to spare.
 *
 * <p>The MiniCluster runs in this JVM: when the JVM stands still (a paused VM on a shared runner),
 * so does the job, and its tasks charge the pause to busy or idle time, whichever they were in.
 * Over such a pause the job did not run as {@link #SPEC} says, and no controller outside the JVM
 * could tell it from a slow job: measured here, a 15 s pause in a 30 s window read Parse (250/s) as
 * 157-189/s, and {@code recommend} said 4 for 3. So a window over a pause of this JVM (or within
 * Flink's 5 s metric-view tick after one, before the pause is charged) is not held to the oracle: a
 * lane runs another {@code recommend} in its place (a few at most; lanes start their runs at least
 * 3 s apart, as a pause would otherwise line them up), and the replay's windows over one are
 * skipped. Every other window meets every assertion.
 */
class BackPressuredWindowsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final double ENRICH_COST_MS = 0.8;

  /**
   * Events (600/s) -> Enrich (0.8 ms: 0.48 -> 1) -> Parse (4 ms: 2.4 -> 3) -> Sink (0.3 ms: 0.18 ->
   * 1), all at parallelism 1.
   */
  private static final JobSpec SPEC =
      new JobSpec(
              "back-pressured",
              List.of(new SourceSpec("Events", RateSchedule.constant(600), 1)),
              List.of(
                  new OperatorSpec("Enrich", List.of("Events"), ENRICH_COST_MS, 1.0, 1, false, 0),
                  new OperatorSpec("Parse", List.of("Enrich"), 4.0, 1.0, 1, false, 0),
                  new OperatorSpec("Sink", List.of("Parse"), 0.3, 0.0, 1, false, 0)))
          .unchained(
              "back-pressure between vertices is what this test is about: chained, the four"
                  + " operators would be one task, with nothing to back-pressure");

  private static final int RUNS = 10;
  private static final int LANES = 3;
  private static final int SPARE_RUNS_PER_LANE = 3;
  private static final Duration PAUSE = Duration.ofSeconds(2);
  private static final Duration CHARGED_WITHIN = Duration.ofSeconds(5);
  // Two polls' worth: windows starting this far apart are cut at different metric refreshes.
  private static final Duration APART = Duration.ofSeconds(3);

  @TempDir Path dir;

  @Test
  void recommendAndRecordedReplayAgreeWithTheOracleOnABackPressuredJob() throws Exception {
    Ds2Options defaults = Ds2Options.defaults();
    Duration deadline =
        defaults.warmUp().plus(defaults.window()).plus(defaults.sampleInterval().multipliedBy(2));
    // A thread each for the recording and the lanes, whatever the machine's cores (the common pool
    // has fewer threads than tasks on 3 or 4 cores, which would run lanes one after the other).
    ExecutorService threads = Executors.newFixedThreadPool(LANES + 1);
    try (Pauses pauses = Pauses.watch(PAUSE);
        LocalFlinkCluster cluster =
            LocalFlinkCluster.startWithFastTimings(
                4,
                LocalFlinkCluster.SMALL_NETWORK_BUFFERS,
                "ten recommends and a recording at 1 s refreshes within CI's budget; the small buffers"
                    + " carry the back-pressure to the source within seconds, which this test is about")) {
      JobClient job = cluster.submit(SPEC);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> job.getJobStatus().get().name().equals("RUNNING"));
      String url = cluster.restUrl().toString();
      Path recording = dir.resolve("job.jsonl.gz");
      CompletableFuture<CliRun> recorded =
          CompletableFuture.supplyAsync(
              () ->
                  CliRun.of(
                      "record",
                      "--flink-url",
                      url,
                      "--out",
                      recording.toString(),
                      "--duration",
                      "200s"),
              threads);

      // The first lane waits out the warm-up; the others start after it, 17 s apart and off the
      // 2 s poll grid of the lane before: their windows start at their own first poll, not at the
      // end of the warm-up like the first lane's, so no two read the same metric refreshes.
      List<CompletableFuture<List<Run>>> lanes = new ArrayList<>();
      AtomicReference<Instant> lastStart = new AtomicReference<>(Instant.EPOCH);
      for (int lane = 0; lane < LANES; lane++) {
        long delay = lane == 0 ? 0 : defaults.warmUp().toSeconds() + 7 + 17 * (lane - 1);
        int n = RUNS / LANES + (lane < RUNS % LANES ? 1 : 0);
        lanes.add(
            CompletableFuture.supplyAsync(
                () -> recommendRuns(url, n, pauses, lastStart),
                CompletableFuture.delayedExecutor(delay, TimeUnit.SECONDS, threads)));
      }
      List<Run> runs = new ArrayList<>();
      for (CompletableFuture<List<Run>> lane : lanes) {
        runs.addAll(lane.get(10, TimeUnit.MINUTES));
      }
      assertEquals(RUNS, runs.size(), "runs the JVM ran through; it paused " + pauses.all());
      // Windows over the same refreshes would give bit-identical rates.
      assertEquals(
          RUNS,
          runs.stream().map(r -> enrichRate(r.cli())).distinct().count(),
          "every run its own readings");
      Map<String, Integer> oracle = SPEC.oracle();
      for (Run r : runs) {
        assertEquals(ExitCodes.OK, r.cli().exitCode(), r.cli().err());
        assertFalse(r.cli().err().contains("went down"), r.cli().err());
        assertTrue(
            r.took().compareTo(deadline) <= 0,
            "a clean window took " + r.took() + ", more than " + deadline + ": " + r.cli().err());
        JsonNode estimate = JSON.readTree(r.cli().out());
        assertEquals(
            oracle,
            JsonEstimates.recommended(estimate.get("vertices"), "recommendedParallelism"),
            "after " + r.took() + ": " + r.cli().out());
        JsonNode source = vertex(estimate, "Source: Events");
        assertTrue(
            source.get("observed").get("backPressuredRatio").asDouble() > 0.5,
            "the overload reaches the source: " + source);
        assertEquals(
            600, source.get("demand").get("targetRate").asDouble(), 600 * 0.05, source.toString());
        // Enrich is back-pressured most of the time; its capacity is still 1 / cost.
        JsonNode enrich = vertex(estimate, "Enrich");
        System.out.printf(
            "recommend: window after %.1f s; Enrich %.1f/s per instance (1/cost %.1f/s),"
                + " back-pressured %.0f %%; source demand %.1f/s%n",
            r.took().toMillis() / 1000.0,
            enrich.get("trueProcessingRatePerInstance").asDouble(),
            1000 / ENRICH_COST_MS,
            100 * enrich.get("observed").get("backPressuredRatio").asDouble(),
            source.get("demand").get("targetRate").asDouble());
        assertTrue(enrich.get("observed").get("backPressuredRatio").asDouble() > 0.5);
        assertEquals(
            1000 / ENRICH_COST_MS,
            enrich.get("trueProcessingRatePerInstance").asDouble(),
            1000 / ENRICH_COST_MS * 0.10,
            enrich.toString());
      }

      CliRun record = recorded.get(6, TimeUnit.MINUTES);
      Instant recordedUntil = Instant.now();
      assertEquals(ExitCodes.OK, record.exitCode(), record.err());
      job.cancel().get();
      JsonNode header = firstLine(recording);
      assertEquals(1000, header.get("collector").get("metricRefreshMs").asLong());
      assertEquals(10_000, header.get("collector").get("intervalMs").asLong());

      CliRun replayed = CliRun.of("whatif", "--recording", recording.toString(), "-o", "json");
      assertEquals(ExitCodes.OK, replayed.exitCode(), replayed.err());
      JsonNode windows = JSON.readTree(replayed.out()).get("windows");
      int decided = 0;
      int held = 0; // to the oracle: not over a pause of this JVM
      List<Long> at = new ArrayList<>(); // s after the recording began: the margin to its end
      Instant began = Instant.parse(header.get("createdAt").asText());
      for (JsonNode w : windows) {
        if ("decision".equals(w.get("type").asText())) {
          decided++;
          at.add(Duration.between(began, Instant.parse(w.get("time").asText())).toSeconds());
          JsonNode span = w.get("estimate").get("window");
          List<Pauses.Pause> over =
              pausesOver(
                  pauses,
                  Instant.parse(span.get("start").asText()),
                  Instant.parse(span.get("end").asText()));
          if (!over.isEmpty()) {
            System.out.printf("whatif: the window at %s was over %s: skipped%n", span, over);
            continue;
          }
          held++;
          assertEquals(
              oracle, JsonEstimates.recommended(w.get("vertices"), "recommended"), w.toString());
        }
      }
      System.out.printf(
          "whatif: %d windows (decided at %s s of 200), %d of them at %s%n",
          decided, at, held, oracle);
      // A pause while recording takes its length from the recording's 200 s: the windows (every
      // 40 s) come that much later, and one more poll (10 s) to get back on the grid.
      List<Pauses.Pause> whileRecording = pauses.within(began, recordedUntil);
      double paused = whileRecording.stream().mapToLong(x -> x.length().toMillis()).sum() / 1000.0;
      int lost = whileRecording.isEmpty() ? 0 : (int) Math.ceil((paused + 10) / 40);
      assertTrue(
          decided >= 4 - lost,
          decided + " windows, pauses " + whileRecording + ": " + replayed.out() + replayed.err());
      assertTrue(held >= 2, held + " windows the JVM ran through: " + pauses.all());
      assertFalse(replayed.out().contains("went down"), replayed.out());
    } finally {
      threads.shutdownNow();
    }
  }

  private record Run(CliRun cli, Duration took) {}

  private static double enrichRate(CliRun r) {
    try {
      return vertex(JSON.readTree(r.out()), "Enrich")
          .get("trueProcessingRatePerInstance")
          .asDouble();
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON: " + r.out() + r.err(), e);
    }
  }

  /**
   * {@code n} runs the JVM ran through, with up to a few more in place of any over a pause. Each
   * starts once no other lane's run has started for {@link #APART}: a pause ends every lane's run
   * at once, and lanes starting together again would read the same polls.
   */
  private static List<Run> recommendRuns(
      String url, int n, Pauses pauses, AtomicReference<Instant> lastStart) {
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < n + SPARE_RUNS_PER_LANE && runs.size() < n; i++) {
      await()
          .atMost(APART.multipliedBy(LANES + 1))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> startsApart(lastStart));
      Instant from = Instant.now();
      long start = System.nanoTime();
      CliRun r = CliRun.of("recommend", "--flink-url", url, "-o", "json");
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      List<Pauses.Pause> over = pausesOver(pauses, from, Instant.now());
      if (over.isEmpty()) {
        runs.add(new Run(r, took));
      } else {
        System.out.printf("recommend over %s: not counted (%s)%n", over, r.out());
      }
    }
    return runs;
  }

  /**
   * The pauses of this JVM a window from {@code start} to {@code end} was over, or began within
   * {@link #CHARGED_WITHIN} of: before Flink charges a pause, its readings still carry it.
   */
  private static List<Pauses.Pause> pausesOver(Pauses pauses, Instant start, Instant end) {
    return pauses.within(start.minus(CHARGED_WITHIN), end);
  }

  /** Claims the next start if the last was at least {@link #APART} ago. */
  private static boolean startsApart(AtomicReference<Instant> lastStart) {
    Instant last = lastStart.get();
    Instant now = Instant.now();
    return !now.isBefore(last.plus(APART)) && lastStart.compareAndSet(last, now);
  }

  private static JsonNode vertex(JsonNode estimate, String name) {
    for (JsonNode v : estimate.get("vertices")) {
      if (v.get("name").asText().equals(name)) {
        return v;
      }
    }
    throw new AssertionError("no vertex " + name + " in " + estimate);
  }

  private static JsonNode firstLine(Path gz) throws Exception {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(gz)), StandardCharsets.UTF_8))) {
      return JSON.readTree(r.readLine());
    }
  }
}
