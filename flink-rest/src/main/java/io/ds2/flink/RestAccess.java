package io.ds2.flink;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.OkHttpClient;
import okhttp3.tls.Certificates;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;

/**
 * How ds2 reaches a Flink REST endpoint beyond its URL: the certificates it trusts (instead of the
 * JVM's, as {@code curl --cacert}), a client certificate for mutual TLS, and credentials sent as an
 * {@code Authorization} header. Secrets are kept where the user keeps them: a file is re-read on
 * every call (a rotated token takes effect), an environment variable is read when used. No field
 * holds a secret, so neither {@code toString}, logs nor error messages can show one.
 */
public record RestAccess(
    Optional<Pem> trustedCertificates,
    Optional<ClientCertificate> clientCertificate,
    Optional<Credentials> credentials) {
  // A PEM block: what okhttp-tls decodes one at a time.
  private static final Pattern PEM_CERTIFICATE =
      Pattern.compile("-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----", Pattern.DOTALL);
  private static final Pattern PEM_PKCS8_KEY =
      Pattern.compile("-----BEGIN PRIVATE KEY-----[^-]+-----END PRIVATE KEY-----", Pattern.DOTALL);

  public static RestAccess none() {
    return new RestAccess(Optional.empty(), Optional.empty(), Optional.empty());
  }

  /** A client certificate (PEM, optionally followed by its chain) and its PKCS#8 PEM key. */
  public record ClientCertificate(Pem certificate, Pem key) {}

  /** PEM text: certificates or a key. */
  public sealed interface Pem {
    /** The text; reads it now. */
    String text() throws IOException;

    /** Where it is kept, for messages (never the text). */
    String where();
  }

  /** PEM text in a file. */
  public record PemFile(Path file) implements Pem {
    @Override
    public String text() throws IOException {
      return Files.readString(file, StandardCharsets.US_ASCII);
    }

    @Override
    public String where() {
      return file.toString();
    }
  }

  /**
   * PEM text given in memory (a Kubernetes Secret's key). Not a record: its text (a private key)
   * must not show in {@code toString}.
   */
  public static final class PemText implements Pem {
    private final String where;
    private final String text;

    public PemText(String where, String text) {
      this.where = where;
      this.text = text;
    }

    @Override
    public String text() {
      return text;
    }

    @Override
    public String where() {
      return where;
    }

    @Override
    public String toString() {
      return "PemText[" + where + "]";
    }
  }

  /** What goes into the {@code Authorization} header. */
  public sealed interface Credentials {
    /** The header value; reads the secret now. */
    String authorization() throws IOException;
  }

  /** {@code Authorization: Bearer <token>}. */
  public record Bearer(Secret token) implements Credentials {
    @Override
    public String authorization() throws IOException {
      return "Bearer " + token.value();
    }
  }

  /** HTTP basic auth; the secret holds {@code user:password}. */
  public record Basic(Secret userAndPassword) implements Credentials {
    @Override
    public String authorization() throws IOException {
      String v = userAndPassword.value();
      int colon = v.indexOf(':');
      if (colon <= 0) {
        throw new IOException(userAndPassword.where() + " does not hold user:password");
      }
      return okhttp3.Credentials.basic(
          v.substring(0, colon), v.substring(colon + 1), StandardCharsets.UTF_8);
    }
  }

  /** Where a secret is kept. */
  public sealed interface Secret {
    String value() throws IOException;

    /** Where it is kept, for messages (never the value). */
    String where();
  }

  /** A file holding the secret (trailing whitespace ignored), re-read on every use. */
  public record FileSecret(Path file) implements Secret {
    @Override
    public String value() throws IOException {
      try {
        String v = Files.readString(file, StandardCharsets.UTF_8).strip();
        if (v.isEmpty()) {
          throw new IOException(where() + " is empty");
        }
        return v;
      } catch (IOException e) {
        throw e.getMessage() != null && e.getMessage().startsWith(where())
            ? e
            : new IOException("cannot read " + where() + ": " + e.getClass().getSimpleName());
      }
    }

    @Override
    public String where() {
      return "file " + file;
    }
  }

  /**
   * A secret given in memory (a Kubernetes Secret's key, read by the caller). Not a record: its
   * value must not show in {@code toString}.
   */
  public static final class GivenSecret implements Secret {
    private final String where;
    private final String value;

    public GivenSecret(String where, String value) {
      this.where = where;
      this.value = value;
    }

    @Override
    public String value() throws IOException {
      if (value == null || value.isBlank()) {
        throw new IOException(where + " is empty");
      }
      return value.strip();
    }

    @Override
    public String where() {
      return where;
    }

    @Override
    public String toString() {
      return "GivenSecret[" + where + "]";
    }
  }

  /** An environment variable holding the secret. */
  public record EnvSecret(String variable) implements Secret {
    @Override
    public String value() throws IOException {
      String v = System.getenv(variable);
      if (v == null || v.isBlank()) {
        throw new IOException(where() + " is not set");
      }
      return v.strip();
    }

    @Override
    public String where() {
      return "environment variable " + variable;
    }
  }

  /**
   * Reads the certificate files now.
   *
   * @throws IllegalArgumentException naming the file, if a certificate or key cannot be used
   */
  public void check() {
    configure(new OkHttpClient.Builder());
  }

  /**
   * Configures TLS and the credentials header on {@code http}.
   *
   * @throws IllegalArgumentException naming the file, if a certificate or key cannot be read
   */
  OkHttpClient.Builder configure(OkHttpClient.Builder http) {
    if (trustedCertificates.isPresent() || clientCertificate.isPresent()) {
      HandshakeCertificates.Builder tls = new HandshakeCertificates.Builder();
      if (trustedCertificates.isPresent()) {
        Pem file = trustedCertificates.get();
        List<String> pems = certificates(file);
        for (String pem : pems) {
          tls.addTrustedCertificate(decode(file, pem));
        }
      } else {
        tls.addPlatformTrustedCertificates();
      }
      clientCertificate.ifPresent(c -> held(tls, c));
      HandshakeCertificates certs = tls.build();
      http.sslSocketFactory(certs.sslSocketFactory(), certs.trustManager());
    }
    credentials.ifPresent(
        c ->
            http.addInterceptor(
                chain ->
                    chain.proceed(
                        chain
                            .request()
                            .newBuilder()
                            .header("Authorization", c.authorization())
                            .build())));
    return http;
  }

  private static List<String> certificates(Pem file) {
    String text = read(file);
    List<String> pems = PEM_CERTIFICATE.matcher(text).results().map(m -> m.group()).toList();
    if (pems.isEmpty()) {
      throw new IllegalArgumentException(
          file.where() + ": no PEM certificate (-----BEGIN CERTIFICATE-----)");
    }
    return pems;
  }

  private static java.security.cert.X509Certificate decode(Pem file, String pem) {
    try {
      return Certificates.decodeCertificatePem(pem);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file.where() + ": not a valid PEM certificate", e);
    }
  }

  private static void held(HandshakeCertificates.Builder tls, ClientCertificate c) {
    List<String> chain = certificates(c.certificate());
    String key = read(c.key());
    Matcher pkcs8 = PEM_PKCS8_KEY.matcher(key);
    if (!pkcs8.find()) {
      throw new IllegalArgumentException(
          c.key().where()
              + ": no PKCS#8 PEM key (-----BEGIN PRIVATE KEY-----); convert one with"
              + " openssl pkcs8 -topk8 -nocrypt");
    }
    HeldCertificate held;
    try {
      held = HeldCertificate.decode(chain.get(0) + "\n" + pkcs8.group());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          c.certificate().where() + " and " + c.key().where() + ": not a certificate and its key",
          e);
    }
    java.security.cert.X509Certificate[] intermediates =
        chain.subList(1, chain.size()).stream()
            .map(pem -> decode(c.certificate(), pem))
            .toArray(java.security.cert.X509Certificate[]::new);
    tls.heldCertificate(held, intermediates);
  }

  private static String read(Pem pem) {
    try {
      return pem.text();
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read " + pem.where() + ": " + e.getClass().getSimpleName(), e);
    }
  }
}
