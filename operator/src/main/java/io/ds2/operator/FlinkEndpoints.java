package io.ds2.operator;

import io.ds2.core.options.InvalidOptionException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which Flink REST endpoints the operator calls for a job. Whoever may annotate a FlinkDeployment
 * must not be able to point ds2 (and what it sends) at any host it reaches: by default a job's
 * endpoint is its own REST Service in its own namespace (the {@code <cluster>-rest} Service the
 * Flink operator creates); a {@code ds2.io/flink-rest-url} elsewhere is followed only if a prefix
 * of the operator's allowlist (chart value {@code flinkAccess.allowedRestUrls}) admits it.
 *
 * @param allowed URL prefixes (scheme, host, port and a path prefix) admitted besides own Services
 * @param credentialsSecret the Secret each job's namespace may hold with its endpoint's credentials
 */
public record FlinkEndpoints(List<URI> allowed, Optional<String> credentialsSecret) {
  /** The port of the REST Service the Flink operator creates. */
  private static final int REST_PORT = 8081;

  public FlinkEndpoints {
    allowed = allowed.stream().map(FlinkEndpoints::checked).toList();
  }

  /** Own REST Services only, no credentials. */
  public static FlinkEndpoints ownServicesOnly() {
    return new FlinkEndpoints(List.of(), Optional.empty());
  }

  /**
   * @throws IllegalArgumentException saying what is wrong with an allowlist entry
   */
  private static URI checked(URI prefix) {
    String scheme = prefix.getScheme() == null ? "" : prefix.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https"))
        || prefix.getHost() == null
        || prefix.getUserInfo() != null
        || prefix.getQuery() != null
        || prefix.getFragment() != null) {
      throw new IllegalArgumentException(
          "'"
              + InvalidOptionException.printable(prefix.toString())
              + "' is not an http(s) URL prefix (scheme://host[:port][/path], nothing more)");
    }
    return prefix.normalize();
  }

  /** The job's own REST Service, as the Flink operator names it. */
  static URI ownService(String cluster, String namespace) {
    return URI.create("http://" + cluster + "-rest." + namespace + ":" + REST_PORT);
  }

  /**
   * @param given the URL the resource's annotation names
   * @param cluster the Flink cluster's name (the FlinkDeployment's, or a session job's cluster)
   * @return the URL to call
   * @throws JobSettings.Invalid naming the annotation, if the URL is not admitted
   */
  URI admit(String given, String cluster, String namespace) throws JobSettings.Invalid {
    URI u = parsed(given);
    String scheme =
        u == null || u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null) {
      throw invalid(given, "is not an http(s) URL");
    }
    if (u.getUserInfo() != null) {
      throw invalid(
          given.replace(u.getRawUserInfo() + "@", "***@"),
          "carries credentials; they come from the namespace's Secret");
    }
    // A dot segment left after normalizing was encoded (%2e%2e): the client would resolve it.
    if (u.getPath() != null
        && java.util.Arrays.stream(u.getPath().split("/"))
            .anyMatch(seg -> seg.equals(".") || seg.equals(".."))) {
      throw invalid(given, "has a dot segment in its path");
    }
    if (ownService(u, cluster, namespace) || allowed.stream().anyMatch(p -> within(u, p))) {
      return u;
    }
    throw invalid(
        given,
        "is neither this job's own REST Service ("
            + cluster
            + "-rest."
            + namespace
            + ") nor under a URL the operator's allowlist admits (flinkAccess.allowedRestUrls)");
  }

  private static URI parsed(String given) {
    try {
      return URI.create(given.trim()).normalize();
    } catch (IllegalArgumentException e) {
      return null; // reported by the caller
    }
  }

  private static JobSettings.Invalid invalid(String given, String why) {
    return new JobSettings.Invalid(
        "annotation "
            + JobSettings.REST_URL
            + ": '"
            + InvalidOptionException.printable(given)
            + "' "
            + why);
  }

  // Cluster-internal names of the Service only: a name with more after it could be anyone's DNS.
  private static boolean ownService(URI u, String cluster, String namespace) {
    String service = (cluster + "-rest." + namespace).toLowerCase(Locale.ROOT);
    String host = u.getHost().toLowerCase(Locale.ROOT);
    return host.equals(service)
        || host.equals(service + ".svc")
        || host.equals(service + ".svc.cluster.local");
  }

  private static boolean within(URI u, URI prefix) {
    if (!u.getScheme().equalsIgnoreCase(prefix.getScheme())
        || !u.getHost().equalsIgnoreCase(prefix.getHost())
        || port(u) != port(prefix)) {
      return false;
    }
    String base = prefix.getPath() == null ? "" : prefix.getPath();
    String path = u.getPath() == null ? "" : u.getPath();
    if (base.isEmpty() || base.equals("/")) {
      return true;
    }
    String dir = base.endsWith("/") ? base : base + "/";
    return path.equals(base) || path.startsWith(dir);
  }

  private static int port(URI u) {
    if (u.getPort() >= 0) {
      return u.getPort();
    }
    return u.getScheme().equalsIgnoreCase("https") ? 443 : 80;
  }
}
