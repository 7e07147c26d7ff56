package io.ds2.workloads.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * A single-node Apache Kafka broker (KRaft: broker and controller in one process) in its own JVM,
 * started by tests and benchmarks themselves. Its own JVM keeps the broker's Kafka version (the
 * {@code kafka-broker} module's classpath) away from the Flink connector's {@code kafka-clients}:
 * one classpath can hold only one. Logs go to {@code broker.log} in its directory.
 *
 * <p>Listens on 127.0.0.1 only, on free ports; topics are created with the given number of
 * partitions by default, and every replication factor is 1.
 */
public final class KafkaBroker implements AutoCloseable {
  /** Where the broker's classpath is, if not found next to the working directory. */
  public static final String LIB_PROPERTY = "ds2.kafka.broker.lib";

  private static final Path LIB_IN_REPO = Path.of("kafka-broker", "target", "lib");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final Process process;
  private final int port;
  // Stops the broker if the JVM exits without closing it (a test killed by a timeout).
  private final Thread stopOnExit;

  private KafkaBroker(Process process, int port) {
    this.process = process;
    this.port = port;
    this.stopOnExit = new Thread(process::destroyForcibly, "kafka-broker-stop");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /**
   * Formats a fresh log directory under {@code dir} and starts the broker; returns once it accepts
   * connections.
   *
   * @param partitions the default number of partitions of a new topic
   * @throws IllegalStateException if the broker's classpath is missing or it does not start
   */
  public static KafkaBroker start(Path dir, int partitions) throws IOException {
    Path lib = lib();
    Files.createDirectories(dir);
    int port = freePort();
    int controllerPort = freePort();
    Path config = dir.resolve("server.properties");
    Files.writeString(config, config(dir.resolve("data"), port, controllerPort, partitions));
    String classpath = classpath(lib);
    Path log = dir.resolve("broker.log");
    // KRaft needs its storage formatted with a cluster id before the first start.
    Process format =
        java(
                classpath,
                "-Xmx256m",
                "kafka.tools.StorageTool",
                "format",
                "-t",
                clusterId(),
                "-c",
                config.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("format.log").toFile())
            .start();
    try {
      if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
        format.destroyForcibly();
        throw new IllegalStateException(
            "formatting the Kafka broker's storage failed: " + lastLine(dir.resolve("format.log")));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while formatting the broker's storage", e);
    }
    Process broker =
        java(classpath, "-Xmx512m", "kafka.Kafka", config.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    KafkaBroker b = new KafkaBroker(broker, port);
    b.awaitListening(log);
    return b;
  }

  /** Creates {@code topic} with {@code partitions} partitions; returns once it exists. */
  public void createTopic(String topic, int partitions) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
      admin
          .createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
          .all()
          .get(60, TimeUnit.SECONDS);
    }
  }

  /** {@code host:port} for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  public boolean isRunning() {
    return process.isAlive();
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException exiting) {
      // the JVM is exiting: the hook runs anyway
    }
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private void awaitListening(Path log) {
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the Kafka broker exited with " + process.exitValue() + " at start: " + lastLine(log));
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException notYet) {
        try {
          process.waitFor(200, TimeUnit.MILLISECONDS); // returns early if it dies
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          close();
          throw new IllegalStateException("interrupted while the Kafka broker started", e);
        }
      }
    }
    close();
    throw new IllegalStateException(
        "the Kafka broker did not listen within " + START_TIMEOUT.toSeconds() + " s; see " + log);
  }

  // What a failed broker command said: its first error line, else its last line (its log is in
  // a directory a test may delete).
  private static String lastLine(Path log) {
    try {
      List<String> lines = Files.readAllLines(log).stream().filter(l -> !l.isBlank()).toList();
      String said =
          lines.stream()
              .filter(l -> l.contains("Exception") || l.contains("Error") || l.contains("ERROR"))
              .findFirst()
              .orElse(lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1));
      return said.strip() + " (" + log + ")";
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private static String config(Path data, int port, int controllerPort, int partitions) {
    return String.join(
        "\n",
        "process.roles=broker,controller",
        "node.id=1",
        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
        "controller.listener.names=CONTROLLER",
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "log.dirs=" + data,
        "num.partitions=" + partitions,
        "offsets.topic.replication.factor=1",
        "offsets.topic.num.partitions=4",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "share.coordinator.state.topic.replication.factor=1",
        "share.coordinator.state.topic.min.isr=1",
        // A consumer group is served at once, not after the default 3 s of waiting for members.
        "group.initial.rebalance.delay.ms=0",
        "auto.create.topics.enable=true",
        "");
  }

  private static ProcessBuilder java(String classpath, String heap, String main, String... args) {
    List<String> command = new ArrayList<>(javaCommand(classpath, heap));
    command.add(main);
    command.addAll(List.of(args));
    return new ProcessBuilder(command);
  }

  private static List<String> javaCommand(String classpath, String heap) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    return List.of(java, heap, "-XX:+UseSerialGC", "-cp", classpath);
  }

  // A KRaft cluster id: 16 random bytes, base64url without padding (as Kafka's Uuid prints), and,
  // as Kafka's own, never starting with '-' (the format tool would take it for an option).
  static String clusterId() {
    SecureRandom random = new SecureRandom();
    byte[] id = new byte[16];
    String text;
    do {
      random.nextBytes(id);
      text = Base64.getUrlEncoder().withoutPadding().encodeToString(id);
    } while (text.startsWith("-"));
    return text;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static String classpath(Path lib) {
    try (Stream<Path> jars = Files.list(lib)) {
      return jars.filter(p -> p.toString().endsWith(".jar"))
          .map(Path::toString)
          .sorted()
          .collect(Collectors.joining(java.io.File.pathSeparator));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The broker's classpath: the property, else kafka-broker/target/lib here or above. */
  static Path lib() {
    String given = System.getProperty(LIB_PROPERTY);
    if (given != null) {
      return requireLib(Path.of(given));
    }
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isDirectory(d.resolve(LIB_IN_REPO))) {
        return d.resolve(LIB_IN_REPO);
      }
    }
    throw new IllegalStateException(
        "no Kafka broker classpath: build the kafka-broker module (mvn -pl kafka-broker package)"
            + " or set -D"
            + LIB_PROPERTY);
  }

  private static Path requireLib(Path lib) {
    if (!Files.isDirectory(lib)) {
      throw new IllegalStateException(LIB_PROPERTY + " " + lib + " is not a directory");
    }
    return lib;
  }
}
