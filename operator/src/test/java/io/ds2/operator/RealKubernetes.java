package io.ds2.operator;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Kubernetes API server (kube-apiserver, with RBAC authorization) on etcd, both on loopback,
 * for the operator's tests: no kubelet, no controllers. The binaries are built once by {@code
 * testinfra/kube/build.sh} (Go) and cached; an admin client (static token, group system:masters)
 * sets things up, and {@link #clientAs} gives a service account's own token, so a test runs the
 * operator with exactly the rights the chart grants.
 */
public final class RealKubernetes implements AutoCloseable {
  private static final String ADMIN_TOKEN = "ds2-test-admin";
  private final Path dir;
  private final List<Process> processes = new ArrayList<>();
  private final String url;
  private final KubernetesClient admin;
  private final List<KubernetesClient> clients = new ArrayList<>();
  private String[] apiServer;

  private RealKubernetes(Path dir, String url, KubernetesClient admin) {
    this.dir = dir;
    this.url = url;
    this.admin = admin;
  }

  private static RealKubernetes shared;

  /**
   * One server for every test class of this JVM (each start costs seconds of etcd and
   * kube-apiserver start-up), stopped when the JVM exits. Classes clean up what they create.
   */
  public static synchronized RealKubernetes shared() throws Exception {
    if (shared == null) {
      RealKubernetes k = start();
      Runtime.getRuntime().addShutdownHook(new Thread(k::close, "kube-apiserver-stop"));
      shared = k;
    }
    return shared;
  }

  /** Builds (once) and starts etcd and kube-apiserver; waits until the server is ready. */
  public static RealKubernetes start() throws Exception {
    Path bin = TestServers.binaries();
    Path dir = Files.createTempDirectory(TestServers.work(), "kube-");
    KeyPair sa = KeyPairGenerator.getInstance("RSA").generateKeyPair();
    Files.writeString(dir.resolve("sa.key"), pem("PRIVATE KEY", sa.getPrivate().getEncoded()));
    Files.writeString(dir.resolve("sa.pub"), pem("PUBLIC KEY", sa.getPublic().getEncoded()));
    Files.writeString(dir.resolve("tokens.csv"), ADMIN_TOKEN + ",admin,admin,\"system:masters\"\n");
    int etcdPort = freePort();
    int peerPort = freePort();
    int apiPort = freePort();
    RealKubernetes k = null;
    List<Process> started = new ArrayList<>();
    try {
      started.add(
          launch(
              dir,
              "etcd",
              bin.resolve("etcd").toString(),
              "--data-dir=" + dir.resolve("etcd"),
              "--listen-client-urls=http://127.0.0.1:" + etcdPort,
              "--advertise-client-urls=http://127.0.0.1:" + etcdPort,
              "--listen-peer-urls=http://127.0.0.1:" + peerPort,
              "--initial-advertise-peer-urls=http://127.0.0.1:" + peerPort,
              "--initial-cluster=default=http://127.0.0.1:" + peerPort));
      String[] apiServer = {
        bin.resolve("kube-apiserver").toString(),
        "--etcd-servers=http://127.0.0.1:" + etcdPort,
        "--bind-address=127.0.0.1",
        "--secure-port=" + apiPort,
        "--cert-dir=" + dir.resolve("certs"),
        "--authorization-mode=RBAC",
        "--token-auth-file=" + dir.resolve("tokens.csv"),
        "--service-account-issuer=https://kubernetes.default.svc",
        "--service-account-key-file=" + dir.resolve("sa.pub"),
        "--service-account-signing-key-file=" + dir.resolve("sa.key"),
        "--service-cluster-ip-range=10.0.0.0/24"
      };
      started.add(launch(dir, "kube-apiserver", apiServer));
      String url = "https://127.0.0.1:" + apiPort;
      KubernetesClient admin = client(url, ADMIN_TOKEN, null);
      k = new RealKubernetes(dir, url, admin);
      k.processes.addAll(started);
      k.apiServer = apiServer;
      k.awaitReady();
      return k;
    } catch (Exception | Error e) {
      if (k != null) {
        k.close();
      } else {
        started.forEach(Process::destroyForcibly);
      }
      throw e;
    }
  }

  public KubernetesClient admin() {
    return admin;
  }

  /** Creates namespaces (idempotent). */
  public void namespaces(String... names) {
    for (String n : names) {
      if (admin.namespaces().withName(n).get() == null) {
        admin
            .resource(new NamespaceBuilder().withNewMetadata().withName(n).endMetadata().build())
            .create();
      }
    }
  }

  /** Installs the Flink Kubernetes Operator's CRDs (as shipped in its API jar) and waits. */
  public void installFlinkCrds() throws IOException {
    for (String plural : List.of("flinkdeployments", "flinksessionjobs")) {
      String file = "META-INF/fabric8/" + plural + ".flink.apache.org-v1.yml";
      try (InputStream in = getClass().getClassLoader().getResourceAsStream(file)) {
        if (in == null) {
          throw new IllegalStateException(file + " is not on the test classpath");
        }
        CustomResourceDefinition crd =
            admin.apiextensions().v1().customResourceDefinitions().load(in).item();
        if (admin
                .apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(crd.getMetadata().getName())
                .get()
            == null) {
          admin.resource(crd).create();
        }
        admin
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName(crd.getMetadata().getName())
            .waitUntilCondition(
                c ->
                    c != null
                        && c.getStatus() != null
                        && c.getStatus().getConditions() != null
                        && c.getStatus().getConditions().stream()
                            .anyMatch(
                                x ->
                                    x.getType().equals("Established")
                                        && x.getStatus().equals("True")),
                60,
                TimeUnit.SECONDS);
      }
    }
  }

  /** A client that authenticates as {@code serviceAccount} with a token the server issued. */
  public KubernetesClient clientAs(String namespace, String serviceAccount) {
    return clientAs(namespace, serviceAccount, null);
  }

  /**
   * As {@link #clientAs(String, String)}, with {@code interceptor} seeing every request it sends
   * (null for none).
   */
  public KubernetesClient clientAs(
      String namespace, String serviceAccount, Interceptor interceptor) {
    String token =
        admin
            .serviceAccounts()
            .inNamespace(namespace)
            .withName(serviceAccount)
            .tokenRequest(
                new TokenRequestBuilder()
                    .withNewSpec()
                    .withExpirationSeconds(3600L)
                    .endSpec()
                    .build())
            .getStatus()
            .getToken();
    KubernetesClient c = client(url, token, interceptor);
    clients.add(c);
    return c;
  }

  private void awaitReady() {
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              for (Process p : processes) {
                if (!p.isAlive()) {
                  throw new IllegalStateException(
                      "a test API server process ended (exit "
                          + p.exitValue()
                          + "); see the logs in "
                          + dir);
                }
              }
              try {
                return "ok".equals(admin.raw("/readyz"));
              } catch (RuntimeException e) {
                return false;
              }
            });
  }

  private static KubernetesClient client(String url, String token, Interceptor interceptor) {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(url)
            .withOauthToken(token)
            .withTrustCerts(true)
            .withDisableHostnameVerification(true)
            .withRequestTimeout(10_000)
            .withConnectionTimeout(5_000)
            .build();
    KubernetesClientBuilder b = new KubernetesClientBuilder().withConfig(config);
    if (interceptor != null) {
      b.withHttpClientBuilderConsumer(h -> h.addOrReplaceInterceptor("ds2-test", interceptor));
    }
    return b.build();
  }

  private static Process launch(Path dir, String name, String... command) throws IOException {
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".log").toFile()))
        .start();
  }

  /**
   * Kills kube-apiserver (as a crash or a node loss would: every connection, every watch, dropped)
   * and starts it again on the same port and etcd; returns once it is ready. Tokens stay valid.
   */
  public void restartApiServer() throws Exception {
    restartApiServer(Duration.ZERO);
  }

  /** As {@link #restartApiServer()}, the server staying down for {@code down} first. */
  public synchronized void restartApiServer(Duration down) throws Exception {
    Process old = processes.get(1);
    old.destroyForcibly().waitFor();
    Thread.sleep(down.toMillis());
    processes.set(1, launch(dir, "kube-apiserver", apiServer));
    awaitReady();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  @Override
  public void close() {
    clients.forEach(KubernetesClient::close);
    admin.close();
    for (int i = processes.size() - 1; i >= 0; i--) {
      Process p = processes.get(i);
      p.destroy();
      try {
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  /** How long tests wait for the operator's loops on this server. */
  public static final Duration PATIENCE = Duration.ofSeconds(90);
}
