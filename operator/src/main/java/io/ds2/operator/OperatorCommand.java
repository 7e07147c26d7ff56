package io.ds2.operator;

import io.ds2.commandline.ExitCodes;
import io.ds2.commandline.GracefulStop;
import io.ds2.commandline.ScalingFlags;
import io.ds2.commandline.UsageException;
import io.ds2.core.options.Ds2Options;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs ds2 as a Kubernetes operator beside the Flink Kubernetes Operator. */
@Command(
    name = "operator",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    header = "Autoscale annotated FlinkDeployments and FlinkSessionJobs on Kubernetes.",
    description = {
      "Manages the FlinkDeployments and FlinkSessionJobs annotated ds2.io/autoscaling: enabled (or"
          + " advisor) by patching their parallelism overrides.",
      "Leader-elected through a Lease; /healthz, /readyz and /metrics on the management port.",
      "SIGTERM stops cleanly."
    })
public final class OperatorCommand implements Callable<Integer>, ScalingFlags.Taker {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  /** Which namespaces to watch: some, or all; one of the two is required. */
  static final class Watch {
    @Option(
        names = "--namespace",
        paramLabel = "NS",
        required = true,
        description = "Namespace to watch. Repeatable.")
    List<String> namespaces = new ArrayList<>();

    @Option(names = "--all-namespaces", required = true, description = "Watch every namespace.")
    boolean allNamespaces;
  }

  @picocli.CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
  Watch watch = new Watch();

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Default options as name=value lines (the option names of 'ds2 options'); flags win.")
  Path config;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "Management port (/healthz, /readyz, /metrics). Default: 8085.")
  int port = 8085;

  @Option(
      names = "--bind-address",
      paramLabel = "ADDR",
      description = "Address the management port binds to. Default: 0.0.0.0.")
  String bindAddress = "0.0.0.0";

  @Option(
      names = "--lease-namespace",
      paramLabel = "NS",
      description =
          "Namespace of the leader-election Lease. Default: $POD_NAMESPACE, else default.")
  String leaseNamespace = System.getenv().getOrDefault("POD_NAMESPACE", "default");

  @Option(
      names = "--identity",
      paramLabel = "ID",
      description = "This instance's name in the Lease. Default: $HOSTNAME.")
  String identity =
      System.getenv().getOrDefault("HOSTNAME", "ds2-" + ProcessHandle.current().pid());

  @Option(
      names = "--record-dir",
      paramLabel = "DIR",
      description =
          "Record every managed job's polls and decisions here for ds2 whatif (one .jsonl.gz per"
              + " job and loop start).")
  Path recordDir;

  @Option(
      names = "--record-keep",
      paramLabel = "N",
      description =
          "Recordings kept per job in --record-dir; the oldest is deleted as a new one starts."
              + " Default: "
              + Ds2Operator.DEFAULT_RECORDINGS_KEPT
              + ".")
  int recordKeep = Ds2Operator.DEFAULT_RECORDINGS_KEPT;

  @Option(
      names = "--record-file-mb",
      paramLabel = "MB",
      description =
          "A recording continues in a new file after this many MB (uncompressed). Default: "
              + (Ds2Operator.DEFAULT_RECORDING_BYTES >> 20)
              + ".")
  int recordFileMb = (int) (Ds2Operator.DEFAULT_RECORDING_BYTES >> 20);

  @Option(
      names = "--loop-threads",
      paramLabel = "N",
      description =
          "Threads that step every managed job's loop (one small shared scheduler, whatever the"
              + " number of jobs). A step never sleeps, but its REST and Kubernetes calls hold"
              + " its thread until answered: each poll makes about 2 + one per vertex calls, so"
              + " 1,000 jobs of 4 vertices polled every 2 s keep 4 threads busy at 1.3 ms a call;"
              + " raise N for more jobs or slower endpoints. Default: "
              + Ds2Operator.DEFAULT_THREADS
              + ".")
  int loopThreads = Ds2Operator.DEFAULT_THREADS;

  @Option(
      names = "--lease-name",
      paramLabel = "NAME",
      description = "Name of the leader-election Lease. Default: ds2-leader.")
  String leaseName = "ds2-leader";

  @Option(
      names = "--allowed-flink-url",
      paramLabel = "PREFIX",
      description =
          "A Flink REST URL prefix (scheme://host[:port][/path]) that ds2.io/flink-rest-url may"
              + " name besides the job's own REST Service. Repeatable. Default: none.")
  List<URI> allowedFlinkUrls = new ArrayList<>();

  @Option(
      names = "--flink-credentials-secret",
      paramLabel = "NAME",
      description =
          "Read each job's Flink REST credentials from the Secret NAME in the job's own namespace"
              + " (keys token, or username and password; tls.crt and tls.key; ca.crt); sent only"
              + " over https. Default: no credentials.")
  String credentialsSecret;

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  boolean verbose;

  @Override
  public Integer call() throws Exception {
    List<String> namespaces = watch.namespaces;
    boolean allNamespaces = watch.allNamespaces;
    if (loopThreads < 1 || loopThreads > 256) {
      throw new UsageException("--loop-threads must be between 1 and 256, was " + loopThreads);
    }
    Ds2Options defaults = ScalingFlags.read(spec, fileDefaults());
    FlinkEndpoints endpoints;
    try {
      endpoints = new FlinkEndpoints(allowedFlinkUrls, Optional.ofNullable(credentialsSecret));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--allowed-flink-url: " + e.getMessage());
    }
    if (credentialsSecret != null && credentialsSecret.isBlank()) {
      throw new UsageException("--flink-credentials-secret: a Secret's name, not blank");
    }
    if (recordDir != null && !(Files.isDirectory(recordDir) && Files.isWritable(recordDir))) {
      throw new UsageException("--record-dir: " + recordDir + " is not a writable directory");
    }
    if (recordKeep < 1 || recordFileMb < 1) {
      throw new UsageException("--record-keep and --record-file-mb must be at least 1");
    }
    PrintWriter out = spec.commandLine().getOut();
    try (KubernetesClient client = new KubernetesClientBuilder().build();
        GracefulStop stop = new GracefulStop()) {
      EventRecorder events = new EventRecorder(client, Clock.systemUTC(), Duration.ofMinutes(30));
      OperatorMetrics metrics = new OperatorMetrics();
      LeaderElectedOperator operator =
          new LeaderElectedOperator(
              client,
              () -> {
                Ds2Operator o =
                    new Ds2Operator(client, namespaces, defaults, events, metrics)
                        .withEndpoints(endpoints)
                        .withThreads(loopThreads);
                return recordDir == null
                    ? o
                    : o.recordingTo(
                        new RecordingDir(recordDir, (long) recordFileMb << 20, recordKeep));
              },
              new LeaderElectedOperator.Lease(
                  leaseNamespace,
                  leaseName,
                  identity,
                  Duration.ofSeconds(15),
                  Duration.ofSeconds(10),
                  Duration.ofSeconds(2)));
      try (HealthServer health =
          new HealthServer(bindAddress, port, operator::healthy, operator::ready, metrics)) {
        operator.start();
        out.println(
            "ds2 operator "
                + identity
                + ": watching "
                + (allNamespaces ? "all namespaces" : namespaces)
                + "; health on "
                + bindAddress
                + ":"
                + health.port());
        out.flush();
        while (!stop.requested()) {
          metrics.leading(operator.leading());
          Thread.sleep(1000);
        }
      } catch (InterruptedException e) {
        out.println("stopping");
      } finally {
        operator.close();
      }
    }
    return ExitCodes.OK;
  }

  private Map<String, String> fileDefaults() {
    Map<String, String> m = new HashMap<>();
    if (config == null) {
      return m;
    }
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(config)) {
      p.load(r);
    } catch (IOException e) {
      throw new UsageException("--config: cannot read " + config + ": " + e.getMessage());
    }
    p.forEach((k, v) -> m.put(String.valueOf(k).trim(), String.valueOf(v).trim()));
    try {
      Ds2Options.fromMap(m);
    } catch (io.ds2.core.options.InvalidOptionException e) {
      throw new UsageException("--config " + config + ": " + e.getMessage());
    }
    return m;
  }
}
