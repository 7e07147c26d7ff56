package io.ds2.operator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The real servers some tests run against (kube-apiserver, etcd, Prometheus, promtool), built from
 * source with Go by {@code testinfra/build.sh} on first use and cached.
 */
final class TestServers {
  // Tests run in a module's directory; a benchmark from the experiments jar names the checkout.
  private static final Path REPO = Path.of(System.getProperty("ds2.repo", ".."));

  private TestServers() {}

  /** Where their data and logs go: the module's target directory, else the temporary one. */
  static Path work() {
    Path target = Path.of("target").toAbsolutePath();
    return Files.isDirectory(target) ? target : Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** Their directory, built first if missing (a clear failure if Go is not there). */
  static synchronized Path binaries() throws IOException, InterruptedException {
    Path cache =
        Path.of(
            System.getenv()
                .getOrDefault(
                    "DS2_TESTINFRA_CACHE",
                    System.getProperty("user.home") + "/.cache/ds2/testinfra"));
    Path log = work().resolve("testinfra-build.log");
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
