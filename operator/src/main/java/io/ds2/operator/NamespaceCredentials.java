package io.ds2.operator;

import io.ds2.flink.RestAccess;
import io.ds2.flink.RestAccess.Basic;
import io.ds2.flink.RestAccess.Bearer;
import io.ds2.flink.RestAccess.ClientCertificate;
import io.ds2.flink.RestAccess.Credentials;
import io.ds2.flink.RestAccess.GivenSecret;
import io.ds2.flink.RestAccess.Pem;
import io.ds2.flink.RestAccess.PemText;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A job's Flink REST credentials, from the Secret of its own namespace that the chart names ({@code
 * flinkAccess.credentialsSecret}): one team's credentials never reach another team's endpoint, and
 * the operator holds none of its own. Keys as Kubernetes' own Secret types name them: {@code token}
 * (a bearer token) or {@code username} and {@code password} (basic auth); {@code tls.crt} and
 * {@code tls.key} (mutual TLS); {@code ca.crt} (certificates to trust). Credentials go only over
 * https. Read when a job's loop starts, so a rotated Secret takes effect at its next start.
 */
final class NamespaceCredentials {
  private final KubernetesClient client;
  private final Optional<String> secretName;

  NamespaceCredentials(KubernetesClient client, Optional<String> secretName) {
    this.client = client;
    this.secretName = secretName;
  }

  /** The Secret or the URL do not allow calling the job's endpoint; the message says why. */
  static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message);
    }
  }

  /**
   * @throws Refused if the Secret cannot be read, holds what ds2 cannot use, or holds credentials
   *     and the URL is not https
   */
  RestAccess access(String namespace, URI url) {
    if (secretName.isEmpty()) {
      return RestAccess.none();
    }
    String where = "Secret " + namespace + "/" + secretName.get();
    Secret secret;
    try {
      secret = client.secrets().inNamespace(namespace).withName(secretName.get()).get();
    } catch (KubernetesClientException e) {
      throw new Refused("cannot read " + where + ": HTTP " + e.getCode());
    }
    if (secret == null) {
      return RestAccess.none(); // this namespace's endpoints need no credentials
    }
    Map<String, String> data = decoded(secret, where);
    Optional<Pem> ca = Optional.ofNullable(data.get("ca.crt")).map(t -> pem(where, "ca.crt", t));
    Optional<ClientCertificate> cert = Optional.empty();
    if (data.containsKey("tls.crt") != data.containsKey("tls.key")) {
      throw new Refused(where + ": tls.crt and tls.key go together");
    }
    if (data.containsKey("tls.crt")) {
      cert =
          Optional.of(
              new ClientCertificate(
                  pem(where, "tls.crt", data.get("tls.crt")),
                  pem(where, "tls.key", data.get("tls.key"))));
    }
    Optional<Credentials> credentials = credentials(data, where);
    if ((credentials.isPresent() || cert.isPresent())
        && !"https".equalsIgnoreCase(url.getScheme())) {
      throw new Refused(
          where
              + " holds credentials, which ds2 sends only over https; this job's Flink URL is "
              + url
              + " (set ds2.io/flink-rest-url to the https URL of its REST Service)");
    }
    RestAccess access = new RestAccess(ca, cert, credentials);
    try {
      access.check();
    } catch (IllegalArgumentException e) {
      throw new Refused(e.getMessage());
    }
    return access;
  }

  private static Optional<Credentials> credentials(Map<String, String> data, String where) {
    boolean token = data.containsKey("token");
    boolean basic = data.containsKey("username") || data.containsKey("password");
    if (token && basic) {
      throw new Refused(where + ": holds a token and a username/password; keep one");
    }
    if (token) {
      return Optional.of(new Bearer(new GivenSecret(where + " key token", data.get("token"))));
    }
    if (basic) {
      if (!data.containsKey("username") || !data.containsKey("password")) {
        throw new Refused(where + ": username and password go together");
      }
      return Optional.of(
          new Basic(
              new GivenSecret(
                  where + " keys username and password",
                  data.get("username") + ":" + data.get("password"))));
    }
    return Optional.empty();
  }

  private static Pem pem(String where, String key, String text) {
    return new PemText(where + " key " + key, text);
  }

  private static Map<String, String> decoded(Secret secret, String where) {
    Map<String, String> data = new HashMap<>();
    if (secret.getStringData() != null) {
      data.putAll(secret.getStringData());
    }
    if (secret.getData() != null) {
      for (Map.Entry<String, String> e : secret.getData().entrySet()) {
        try {
          data.put(
              e.getKey(),
              new String(Base64.getDecoder().decode(e.getValue()), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException ex) {
          throw new Refused(where + " key " + e.getKey() + " is not base64");
        }
      }
    }
    return data;
  }
}
