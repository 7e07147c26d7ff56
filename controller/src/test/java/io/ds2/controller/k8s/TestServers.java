package io.ds2.controller.k8s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The real servers some tests run against (kube-apiserver, etcd, Prometheus, promtool), built from
 * source with Go by {@code testinfra/build.sh} on first use and cached.
 */
final class TestServers {
  private static final Path REPO = Path.of("..");

  private TestServers() {}

  /** Their directory, built first if missing (a clear failure if Go is not there). */
  static synchronized Path binaries() throws IOException, InterruptedException {
    Path cache =
        Path.of(
            System.getenv()
                .getOrDefault(
                    "DS2_TESTINFRA_CACHE",
                    System.getProperty("user.home") + "/.cache/ds2/testinfra"));
    Path log = Path.of("target").toAbsolutePath().resolve("testinfra-build.log");
    Process build =
        new ProcessBuilder("bash", REPO.resolve("testinfra/build.sh").toString(), cache.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!build.waitFor(40, TimeUnit.MINUTES) || build.exitValue() != 0) {
      build.destroyForcibly();
      throw new IllegalStateException(
          "cannot build the test servers (testinfra/build.sh needs Go and the Go module proxy): "
              + Files.readString(log).strip().lines().reduce((a, b) -> b).orElse(""));
    }
    return cache;
  }
}
