package io.ds2.cli;

import io.ds2.commandline.UsageException;
import io.ds2.flink.RestAccess;
import io.ds2.flink.RestAccess.Basic;
import io.ds2.flink.RestAccess.Bearer;
import io.ds2.flink.RestAccess.ClientCertificate;
import io.ds2.flink.RestAccess.Credentials;
import io.ds2.flink.RestAccess.EnvSecret;
import io.ds2.flink.RestAccess.FileSecret;
import io.ds2.flink.RestAccess.PemFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * TLS and credentials for the Flink REST endpoint. Secrets are named by where they are kept (a file
 * or an environment variable), never given as values: a value on the command line would show in the
 * process list and shell history.
 */
final class FlinkAccessOptions {
  @Option(
      names = "--flink-ca",
      paramLabel = "FILE",
      description = "PEM certificates to trust for an https Flink URL, instead of the JVM's.")
  Path ca;

  @Option(
      names = "--flink-client-cert",
      paramLabel = "FILE",
      description =
          "PEM client certificate (then its chain) for mutual TLS; needs --flink-client-key.")
  Path clientCert;

  @Option(
      names = "--flink-client-key",
      paramLabel = "FILE",
      description = "PKCS#8 PEM key of --flink-client-cert.")
  Path clientKey;

  @Option(
      names = "--flink-token-file",
      paramLabel = "FILE",
      description = "Send 'Authorization: Bearer' with the token in FILE (re-read on every call).")
  Path tokenFile;

  @Option(
      names = "--flink-token-env",
      paramLabel = "VAR",
      description = "As --flink-token-file, the token taken from environment variable VAR.")
  String tokenEnv;

  @Option(
      names = "--flink-basic-auth-file",
      paramLabel = "FILE",
      description = "HTTP basic auth with user:password read from FILE (re-read on every call).")
  Path basicFile;

  @Option(
      names = "--flink-basic-auth-env",
      paramLabel = "VAR",
      description =
          "As --flink-basic-auth-file, user:password taken from environment variable VAR.")
  String basicEnv;

  /**
   * @throws UsageException naming the flag, if the flags do not fit together or a file is missing
   */
  RestAccess access() {
    if ((clientCert == null) != (clientKey == null)) {
      throw new UsageException("--flink-client-cert and --flink-client-key go together");
    }
    List<Credentials> credentials = new ArrayList<>();
    List<String> given = new ArrayList<>();
    if (tokenFile != null) {
      credentials.add(new Bearer(new FileSecret(readable("--flink-token-file", tokenFile))));
      given.add("--flink-token-file");
    }
    if (tokenEnv != null) {
      credentials.add(new Bearer(new EnvSecret(tokenEnv)));
      given.add("--flink-token-env");
    }
    if (basicFile != null) {
      credentials.add(new Basic(new FileSecret(readable("--flink-basic-auth-file", basicFile))));
      given.add("--flink-basic-auth-file");
    }
    if (basicEnv != null) {
      credentials.add(new Basic(new EnvSecret(basicEnv)));
      given.add("--flink-basic-auth-env");
    }
    if (credentials.size() > 1) {
      throw new UsageException("give one way to authenticate, not " + String.join(" and ", given));
    }
    RestAccess access =
        new RestAccess(
            Optional.ofNullable(ca).map(f -> new PemFile(readable("--flink-ca", f))),
            clientCert == null
                ? Optional.empty()
                : Optional.of(
                    new ClientCertificate(
                        new PemFile(readable("--flink-client-cert", clientCert)),
                        new PemFile(readable("--flink-client-key", clientKey)))),
            credentials.stream().findFirst());
    try {
      access.check();
    } catch (IllegalArgumentException e) {
      throw new UsageException("--flink-ca/--flink-client-*: " + e.getMessage());
    }
    return access;
  }

  private static Path readable(String flag, Path file) {
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new UsageException(flag + ": " + file + " is not a readable file");
    }
    return file;
  }
}
