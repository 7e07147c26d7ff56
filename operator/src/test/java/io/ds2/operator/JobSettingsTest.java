package io.ds2.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ds2.core.options.Ds2Options;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JobSettingsTest {
  private static GenericKubernetesResource resource(
      String kind, Map<String, String> a, Map<String, Object> spec) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("flink.apache.org/v1beta1")
        .withKind(kind)
        .withNewMetadata()
        .withName("orders")
        .withNamespace("team-a")
        .withAnnotations(a)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", spec))
        .build();
  }

  @Test
  void notAnnotatedMeansNotManaged() throws Exception {
    assertTrue(
        JobSettings.of(resource("FlinkDeployment", Map.of(), Map.of()), Ds2Options.defaults())
            .isEmpty());
  }

  @Test
  void restEndpointOfADeploymentASessionJobAndAnOverride() throws Exception {
    Map<String, String> on = Map.of(JobSettings.AUTOSCALING, "enabled");
    assertEquals(
        URI.create("http://orders-rest.team-a:8081"),
        JobSettings.of(resource("FlinkDeployment", on, Map.of()), Ds2Options.defaults())
            .orElseThrow()
            .restUrl());
    assertEquals(
        URI.create("http://session-rest.team-a:8081"),
        JobSettings.of(
                resource("FlinkSessionJob", on, Map.of("deploymentName", "session")),
                Ds2Options.defaults())
            .orElseThrow()
            .restUrl());
    JobSettings s =
        JobSettings.of(
                resource(
                    "FlinkDeployment",
                    Map.of(
                        JobSettings.AUTOSCALING,
                        "advisor",
                        JobSettings.REST_URL,
                        "https://flink.example:443",
                        "ds2.io/window",
                        "90s"),
                    Map.of()),
                Ds2Options.defaults(),
                new FlinkEndpoints(List.of(URI.create("https://flink.example")), Optional.empty()))
            .orElseThrow();
    assertEquals(JobSettings.Mode.ADVISOR, s.mode());
    assertEquals(URI.create("https://flink.example:443"), s.restUrl());
    assertEquals(Duration.ofSeconds(90), s.options().window());
  }

  @Test
  void badValuesNameTheAnnotation() {
    var e =
        assertThrows(
            JobSettings.Invalid.class,
            () ->
                JobSettings.of(
                    resource("FlinkDeployment", Map.of(JobSettings.AUTOSCALING, "on"), Map.of()),
                    Ds2Options.defaults()));
    assertEquals(
        "annotation ds2.io/autoscaling: 'on' is not 'enabled' or 'advisor'", e.getMessage());
    e =
        assertThrows(
            JobSettings.Invalid.class,
            () ->
                JobSettings.of(
                    resource(
                        "FlinkSessionJob", Map.of(JobSettings.AUTOSCALING, "enabled"), Map.of()),
                    Ds2Options.defaults()));
    assertEquals("spec.deploymentName is missing", e.getMessage());
    e =
        assertThrows(
            JobSettings.Invalid.class,
            () ->
                JobSettings.of(
                    resource(
                        "FlinkDeployment",
                        Map.of(
                            JobSettings.AUTOSCALING, "enabled", JobSettings.REST_URL, "flink:8081"),
                        Map.of()),
                    Ds2Options.defaults()));
    assertEquals(
        "annotation ds2.io/flink-rest-url: 'flink:8081' is not an http(s) URL", e.getMessage());
  }

  @Test
  void sourceSplitsByVertexNameAndABadEntryNamed() throws Exception {
    JobSettings s =
        JobSettings.of(
                resource(
                    "FlinkDeployment",
                    Map.of(
                        JobSettings.AUTOSCALING,
                        "enabled",
                        JobSettings.SOURCE_SPLITS,
                        "Source: Files -> Parse=24; Source: B = 8;"),
                    Map.of()),
                Ds2Options.defaults())
            .orElseThrow();
    assertEquals(Map.of("Source: Files -> Parse", 24, "Source: B", 8), s.sourceSplits());
    var e =
        assertThrows(
            JobSettings.Invalid.class,
            () ->
                JobSettings.of(
                    resource(
                        "FlinkDeployment",
                        Map.of(
                            JobSettings.AUTOSCALING,
                            "enabled",
                            JobSettings.SOURCE_SPLITS,
                            "Source: A=12; Source: B=none"),
                        Map.of()),
                    Ds2Options.defaults()));
    assertEquals(
        "annotation ds2.io/source-splits: 'Source: B=none' is not VERTEX=N (a source vertex's name"
            + " or id and a split count >= 1)",
        e.getMessage());
  }
}
