package io.ds2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.commandline.ExitCodes;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TLS and credential flags reach the REST client; their misuse is one usage line. */
class FlinkAccessCliTest {
  private static final String TOKEN = "tok-9f8e7d";
  @TempDir Path dir;

  private static void usage(String expected, String... args) {
    CliRun r = CliRun.of(args);
    assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
    assertEquals(1, r.errLines().length, r.err());
    assertEquals(expected, r.errLines()[0]);
  }

  @Test
  void anHttpsEndpointWithAPrivateCaAndATokenFromAFile() throws Exception {
    HeldCertificate ca = new HeldCertificate.Builder().certificateAuthority(0).build();
    HeldCertificate cert =
        new HeldCertificate.Builder().addSubjectAlternativeName("127.0.0.1").signedBy(ca).build();
    try (MockWebServer server = new MockWebServer()) {
      server.useHttps(
          new HandshakeCertificates.Builder().heldCertificate(cert).build().sslSocketFactory(),
          false);
      server.enqueue(new MockResponse().setResponseCode(403).setBody("{\"errors\":[\"denied\"]}"));
      server.start(InetAddress.getLoopbackAddress(), 0);
      Path caFile = Files.writeString(dir.resolve("ca.pem"), ca.certificatePem());
      Path token = Files.writeString(dir.resolve("token"), TOKEN);
      CliRun r =
          CliRun.of(
              "recommend",
              "--flink-url",
              "https://127.0.0.1:" + server.getPort(),
              "--flink-ca",
              caFile.toString(),
              "--flink-token-file",
              token.toString(),
              "--timeout",
              "2s");
      assertEquals("Bearer " + TOKEN, server.takeRequest().getHeader("Authorization"));
      assertEquals(ExitCodes.RUNTIME, r.exitCode(), r.err());
      assertEquals(1, r.errLines().length, r.err());
      assertTrue(r.err().contains("returned HTTP 403"), r.err());
      assertFalse(r.err().contains(TOKEN) || r.out().contains(TOKEN));
    }
  }

  @Test
  void misusedFlagsAreUsageErrors() throws Exception {
    String url = "https://127.0.0.1:1";
    usage(
        "ds2 recommend: --flink-client-cert and --flink-client-key go together",
        "recommend",
        "--flink-url",
        url,
        "--flink-client-cert",
        "c.pem");
    Path token = Files.writeString(dir.resolve("token"), TOKEN);
    usage(
        "ds2 recommend: give one way to authenticate, not --flink-token-file and"
            + " --flink-basic-auth-env",
        "recommend",
        "--flink-url",
        url,
        "--flink-token-file",
        token.toString(),
        "--flink-basic-auth-env",
        "FLINK_AUTH");
    usage(
        "ds2 recommend: --flink-token-file: " + dir.resolve("none") + " is not a readable file",
        "recommend",
        "--flink-url",
        url,
        "--flink-token-file",
        dir.resolve("none").toString());
    usage(
        "ds2 recommend: --flink-ca/--flink-client-*: "
            + token
            + ": no PEM certificate (-----BEGIN CERTIFICATE-----)",
        "recommend",
        "--flink-url",
        url,
        "--flink-ca",
        token.toString());
    CliRun r = CliRun.of("recommend", "--flink-url", "https://flink:" + TOKEN + "@127.0.0.1:1");
    assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
    assertFalse(r.err().contains(TOKEN), r.err());
  }
}
