package io.ds2.experiments.bench.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ds2.experiments.bench.BenchController;
import io.ds2.flink.ClusterSlots;
import io.ds2.recording.Recorded;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The Flink Kubernetes Operator's autoscaler, the library {@code flink-autoscaler:1.10.0} itself
 * (not a reimplementation), in a child JVM ({@link FlinkAutoscalerProcess}) because its copies of
 * two Flink REST classes must come first on its classpath and would break the MiniCluster's REST
 * server in this one. Its rescales and call times come back as JSON lines and go into the run's
 * recording like every other controller's.
 */
public final class FlinkAutoscaler110 implements BenchController {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String VERTEX_MAX_PARALLELISM = "vertex.max-parallelism";
  private final String name;
  private final Map<String, String> settings;
  private final Duration loop;

  private FlinkAutoscaler110(String name, Map<String, String> settings, Duration loop) {
    this.name = name;
    this.settings = settings;
    this.loop = loop;
  }

  /** Its defaults (5 min stabilization, 15 min window), at the standalone loop's 10 s. */
  public static FlinkAutoscaler110 defaults() {
    return new FlinkAutoscaler110("flink-as-1.10", Map.of(), Duration.ofSeconds(10));
  }

  /**
   * Its documentation's "basic configuration example" (operator 1.10, autoscaler.md): 1 min
   * stabilization, 5 min metrics window, target utilization 0.6 with boundary 0.2, restart time 2
   * min, catch-up 5 min; every other option at its default (a scale-down waits 1 h). It can decide
   * 6 min after the job (re)started.
   */
  public static FlinkAutoscaler110 documented(String name) {
    return documented(name, "0.6");
  }

  /** Its documentation's example at another target utilization (boundary 0.2 as there). */
  public static FlinkAutoscaler110 documented(String name, String targetUtilization) {
    return new FlinkAutoscaler110(
        name,
        Map.of(
            "stabilization.interval", "1 min",
            "metrics.window", "5 min",
            "target.utilization", targetUtilization,
            "target.utilization.boundary", "0.2",
            "restart.time", "2 min",
            "catch-up.duration", "5 min"),
        Duration.ofSeconds(10));
  }

  /**
   * Settings matched to the other controllers: a 10 s metrics window after a 5 s stabilization,
   * sized for utilization 1.0 (boundary 0.1), scale-downs after 30 s, no backlog sizing, the
   * in-place rescale's few seconds of restart; a loop (its sampling rate) every 2 s.
   */
  public static FlinkAutoscaler110 matched() {
    return atTarget("flink-as-1.10-matched", "1.0");
  }

  /** The matched settings at another target utilization (boundary 0.1 as there). */
  public static FlinkAutoscaler110 atTarget(String name, String targetUtilization) {
    return new FlinkAutoscaler110(
        name,
        Map.of(
            "metrics.window", "10 s",
            "stabilization.interval", "5 s",
            "target.utilization", targetUtilization,
            "target.utilization.boundary", "0.1",
            "scale-down.interval", "30 s",
            "catch-up.duration", "0 s",
            "restart.time", "5 s"),
        Duration.ofSeconds(2));
  }

  @Override
  public String name() {
    return name;
  }

  /** Its {@code target.utilization} (0.7 by default). */
  @Override
  public double targetUtilization() {
    return Double.parseDouble(settings.getOrDefault("target.utilization", "0.7"));
  }

  @Override
  public void run(Context c) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    // Its own log at INFO, timestamped, so a reader sees why it decided what it did (the
    // controller jar's simplelogger.properties would keep it at WARN).
    cmd.add("-Dorg.slf4j.simpleLogger.log.org.apache.flink.autoscaler=info");
    cmd.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
    cmd.add("-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    cmd.add("-cp");
    cmd.add(classpath());
    cmd.add(FlinkAutoscalerProcess.class.getName());
    cmd.add(c.rest().baseUrl().toString());
    cmd.add(c.jobId());
    cmd.add(String.valueOf(loop.toSeconds()));
    List<String> arguments = arguments(ClusterSlots.total(c.rest()));
    cmd.addAll(arguments);
    // What it ran with, in the run's recording (its settings are not in the header's options).
    ObjectNode given = JSON.createObjectNode();
    given.set("options", JSON.valueToTree(arguments));
    c.recording()
        .write(
            new Recorded.Event(
                c.clock().instant(), "controller-options", String.join(" ", arguments), given));
    // Its log (and the library's own) goes next to the run's recording.
    Path log =
        c.recording()
            .path()
            .resolveSibling(
                c.recording().path().getFileName().toString().replace(".jsonl.gz", ".log"));
    Process child =
        new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.to(log.toFile())).start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      Thread reader =
          new Thread(
              () -> {
                try {
                  for (String line = out.readLine(); line != null; line = out.readLine()) {
                    handle(c, JSON.readTree(line));
                  }
                } catch (IOException e) {
                  // the child ended
                }
              },
              "flink-as-output");
      reader.setDaemon(true);
      reader.start();
      while (child.isAlive()) {
        Thread.sleep(200);
      }
      throw new IllegalStateException("the autoscaler process ended with " + child.exitValue());
    } finally {
      child.destroyForcibly();
    }
  }

  /**
   * Its options as {@code key=value}: the settings, and on a cluster of fixed size, as the bench's,
   * a cap at the slots there are with its own option, as its users set it there (ds2 reads them
   * itself): uncapped, it asked 64 of Nexmark Q3's 32 slots, which cannot start, and never rescaled
   * in 15 minutes.
   */
  List<String> arguments(OptionalInt clusterSlots) {
    Map<String, String> all = new TreeMap<>(settings);
    clusterSlots.ifPresent(s -> all.putIfAbsent(VERTEX_MAX_PARALLELISM, String.valueOf(s)));
    return all.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
  }

  private static void handle(Context c, JsonNode line) {
    String kind = line.path("kind").asText();
    if (kind.equals("scale-call")) {
      c.timer().add(line.path("nanos").asLong());
      return;
    }
    ObjectNode details = JSON.createObjectNode();
    details.set("requested", line.path("target"));
    c.recording()
        .write(
            new Recorded.Event(
                c.clock().instant(), kind, kind + " " + line.path("target"), details));
  }

  /** The autoscaler's jars first, then this JVM's classpath. */
  private static String classpath() throws IOException {
    Path autoscaler = autoscalerJars();
    List<String> parts = new ArrayList<>();
    try (Stream<Path> jars = Files.list(autoscaler)) {
      parts.addAll(jars.map(Path::toString).sorted().toList());
    }
    parts.add(System.getProperty("java.class.path"));
    return parts.stream().collect(Collectors.joining(File.pathSeparator));
  }

  private static Path autoscalerJars() {
    // Copied by the experiments build next to target/lib (maven-dependency-plugin); next to the
    // running jar first (bin/ds2-bench runs a private copy of both), else the build's.
    Path nextToJar =
        Path.of(System.getProperty("java.class.path"))
            .toAbsolutePath()
            .getParent()
            .resolve("lib-flink-autoscaler");
    if (Files.isDirectory(nextToJar)) {
      return nextToJar;
    }
    for (String candidate :
        List.of("experiments/target/lib-flink-autoscaler", "target/lib-flink-autoscaler")) {
      if (Files.isDirectory(Path.of(candidate))) {
        return Path.of(candidate);
      }
    }
    throw new IllegalStateException(
        "flink-autoscaler 1.10.0 jars not found (run mvn -pl experiments -am package)");
  }
}
