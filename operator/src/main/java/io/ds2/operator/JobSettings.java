package io.ds2.operator;

import io.ds2.core.options.Ds2Options;
import io.ds2.core.options.InvalidOptionException;
import io.ds2.core.options.OptionSpec;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a resource's annotations ask of ds2: whether it is managed ({@code ds2.io/autoscaling:
 * enabled | advisor}), where its Flink REST API is, and per-job option overrides ({@code
 * ds2.io/<option>}, every option of {@link Ds2Options}), and how many splits a source reads where
 * its metrics do not say ({@code ds2.io/source-splits: "Source: Files -> Parse=24; Source: B=8"},
 * vertex names or ids). A bad value is reported naming the annotation, and the job is left
 * untouched.
 *
 * @param sourceSplits split counts by source vertex name or id
 */
public record JobSettings(
    Mode mode, Ds2Options options, URI restUrl, Map<String, Integer> sourceSplits) {
  public static final String PREFIX = "ds2.io/";
  public static final String AUTOSCALING = PREFIX + "autoscaling";
  public static final String REST_URL = PREFIX + "flink-rest-url";
  public static final String LAST_DECISION = PREFIX + "last-decision";
  public static final String IN_FLIGHT = PREFIX + "rescale-in-flight";
  public static final String APPLIED = PREFIX + "applied-overrides";
  public static final String PREVIOUS = PREFIX + "previous-overrides";
  public static final String SOURCE_SPLITS = PREFIX + "source-splits";

  public JobSettings {
    sourceSplits = Map.copyOf(sourceSplits);
  }

  public enum Mode {
    ENABLED,
    ADVISOR
  }

  /** A resource ds2 must not act on, and why (one line, naming the annotation). */
  public static final class Invalid extends Exception {
    public Invalid(String message) {
      super(message);
    }
  }

  /**
   * @return empty if the resource has not opted in
   * @throws Invalid naming the first bad annotation
   */
  public static Optional<JobSettings> of(GenericKubernetesResource r, Ds2Options defaults)
      throws Invalid {
    return of(r, defaults, FlinkEndpoints.ownServicesOnly());
  }

  /**
   * @param endpoints which REST URLs an annotation may name
   * @return empty if the resource has not opted in
   * @throws Invalid naming the first bad annotation
   */
  public static Optional<JobSettings> of(
      GenericKubernetesResource r, Ds2Options defaults, FlinkEndpoints endpoints) throws Invalid {
    Map<String, String> a =
        r.getMetadata().getAnnotations() == null ? Map.of() : r.getMetadata().getAnnotations();
    String mode = a.get(AUTOSCALING);
    if (mode == null) {
      return Optional.empty();
    }
    Mode m =
        switch (mode.trim().toLowerCase(java.util.Locale.ROOT)) {
          case "enabled" -> Mode.ENABLED;
          case "advisor" -> Mode.ADVISOR;
          default ->
              throw new Invalid(
                  "annotation "
                      + AUTOSCALING
                      + ": '"
                      + InvalidOptionException.printable(mode)
                      + "' is not 'enabled' or 'advisor'");
        };
    Map<String, String> overrides = new HashMap<>();
    for (OptionSpec s : Ds2Options.SPECS) {
      String v = a.get(PREFIX + s.name());
      if (v != null) {
        overrides.put(s.name(), v);
      }
    }
    Ds2Options options;
    try {
      options = defaults.with(overrides);
    } catch (InvalidOptionException e) {
      throw new Invalid("annotation " + PREFIX + e.option() + ": " + e.getMessage());
    }
    return Optional.of(new JobSettings(m, options, restUrl(r, a, endpoints), sourceSplits(a)));
  }

  /** {@code VERTEX=N} entries separated by {@code ;}; a vertex name may hold {@code =} itself. */
  private static Map<String, Integer> sourceSplits(Map<String, String> a) throws Invalid {
    String given = a.get(SOURCE_SPLITS);
    Map<String, Integer> splits = new HashMap<>();
    if (given == null) {
      return splits;
    }
    for (String entry : given.split(";")) {
      if (entry.isBlank()) {
        continue;
      }
      int eq = entry.lastIndexOf('=');
      Integer n = null;
      try {
        n = eq > 0 ? Integer.valueOf(entry.substring(eq + 1).trim()) : null;
      } catch (NumberFormatException e) {
        // reported below
      }
      if (n == null || n < 1 || entry.substring(0, eq).isBlank()) {
        throw new Invalid(
            "annotation "
                + SOURCE_SPLITS
                + ": '"
                + InvalidOptionException.printable(entry.trim())
                + "' is not VERTEX=N (a source vertex's name or id and a split count >= 1)");
      }
      splits.put(entry.substring(0, eq).trim(), n);
    }
    return splits;
  }

  private static URI restUrl(
      GenericKubernetesResource r, Map<String, String> a, FlinkEndpoints endpoints) throws Invalid {
    String ns = r.getMetadata().getNamespace();
    // A session job runs on its session cluster's FlinkDeployment.
    String cluster =
        "FlinkSessionJob".equals(r.getKind())
            ? FlinkKinds.string(r, "spec", "deploymentName")
                .orElseThrow(() -> new Invalid("spec.deploymentName is missing"))
            : r.getMetadata().getName();
    String given = a.get(REST_URL);
    return given == null
        ? FlinkEndpoints.ownService(cluster, ns)
        : endpoints.admit(given, cluster, ns);
  }
}
