package io.ds2.controller.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Helm chart, linted and rendered by real Helm (helm-java bundles the engine) for default and
 * non-default values; its RBAC must be least privilege: no wildcards, no status writes, no secrets,
 * only the verbs ds2 uses.
 */
class HelmChartTest {
  private static final Path CHART = Path.of("..", "deploy", "helm", "ds2");
  private static final Set<String> VERBS =
      Set.of("get", "list", "watch", "patch", "create", "update");

  private static List<JsonNode> render(Map<String, Object> values) throws Exception {
    TemplateCommand t = new Helm(CHART).template().withName("ds2").withNamespace("ds2-system");
    values.forEach(t::set);
    String yaml = t.call();
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it =
        new YAMLMapper().readerFor(JsonNode.class).readValues(yaml)) {
      while (it.hasNext()) {
        JsonNode n = it.next();
        if (n != null && n.has("kind")) {
          docs.add(n);
        }
      }
    }
    return docs;
  }

  private static List<JsonNode> kind(List<JsonNode> docs, String kind) {
    return docs.stream().filter(d -> kind.equals(d.get("kind").asText())).toList();
  }

  private static void assertLeastPrivilege(List<JsonNode> docs) {
    List<JsonNode> roles = new ArrayList<>(kind(docs, "Role"));
    roles.addAll(kind(docs, "ClusterRole"));
    assertFalse(roles.isEmpty());
    for (JsonNode role : roles) {
      for (JsonNode rule : role.get("rules")) {
        for (String field : List.of("apiGroups", "resources", "verbs")) {
          rule.get(field)
              .forEach(v -> assertFalse(v.asText().contains("*"), field + " wildcard in " + rule));
        }
        rule.get("resources")
            .forEach(
                r -> {
                  assertFalse(r.asText().endsWith("/status"), "status write: " + rule);
                  assertFalse(r.asText().equals("secrets"), "secrets access: " + rule);
                });
        rule.get("verbs")
            .forEach(v -> assertTrue(VERBS.contains(v.asText()), "verb " + v + " in " + rule));
      }
    }
  }

  @Test
  void lintsStrictly() {
    LintResult result = new Helm(CHART).lint().strict().call();
    assertFalse(result.isFailed(), String.valueOf(result.getMessages()));
  }

  @Test
  void defaultsWatchAllNamespacesWithAClusterRoleAndAHardenedPod() throws Exception {
    List<JsonNode> docs = render(Map.of());
    assertLeastPrivilege(docs);
    assertEquals(1, kind(docs, "ClusterRole").size());
    JsonNode deployment = kind(docs, "Deployment").get(0);
    JsonNode pod = deployment.get("spec").get("template").get("spec");
    assertTrue(pod.get("securityContext").get("runAsNonRoot").asBoolean());
    JsonNode container = pod.get("containers").get(0);
    assertTrue(container.get("securityContext").get("readOnlyRootFilesystem").asBoolean());
    assertTrue(container.get("args").toString().contains("--all-namespaces"));
    assertEquals("/healthz", container.get("livenessProbe").get("httpGet").get("path").asText());
    assertEquals("/readyz", container.get("readinessProbe").get("httpGet").get("path").asText());
  }

  @Test
  void watchedNamespacesGetRolesAndOptionsReachTheConfig() throws Exception {
    List<JsonNode> docs =
        render(
            Map.of(
                "watchNamespaces[0]", "team-a",
                "watchNamespaces[1]", "team-b",
                "options.window", "60s",
                "replicas", 3,
                "management.port", 9090));
    assertLeastPrivilege(docs);
    assertTrue(kind(docs, "ClusterRole").isEmpty());
    List<String> namespaces =
        kind(docs, "Role").stream().map(r -> r.get("metadata").get("namespace").asText()).toList();
    assertTrue(
        namespaces.containsAll(List.of("team-a", "team-b", "ds2-system")), namespaces.toString());
    JsonNode container =
        kind(docs, "Deployment")
            .get(0)
            .get("spec")
            .get("template")
            .get("spec")
            .get("containers")
            .get(0);
    assertTrue(container.get("args").toString().contains("--namespace=team-a"));
    assertEquals(9090, container.get("ports").get(0).get("containerPort").asInt());
    assertTrue(
        kind(docs, "ConfigMap")
            .get(0)
            .get("data")
            .get("options.properties")
            .asText()
            .contains("window=60s"));
  }

  @Test
  void flinkAccessComesFromAMountedSecretAsFilesNeverAsValues() throws Exception {
    List<JsonNode> docs =
        render(
            Map.of(
                "flinkAccess.secretName", "ds2-flink-access",
                "flinkAccess.caKey", "ca.crt",
                "flinkAccess.clientCertKey", "tls.crt",
                "flinkAccess.clientKeyKey", "tls.key",
                "flinkAccess.tokenKey", "token"));
    JsonNode pod = kind(docs, "Deployment").get(0).at("/spec/template/spec");
    JsonNode container = pod.at("/containers/0");
    List<String> args = new ArrayList<>();
    container.get("args").forEach(a -> args.add(a.asText()));
    assertTrue(args.contains("--flink-ca=/etc/ds2/flink/ca.crt"), args.toString());
    assertTrue(args.contains("--flink-client-cert=/etc/ds2/flink/tls.crt"), args.toString());
    assertTrue(args.contains("--flink-client-key=/etc/ds2/flink/tls.key"), args.toString());
    assertTrue(args.contains("--flink-token-file=/etc/ds2/flink/token"), args.toString());
    assertEquals("ds2-flink-access", pod.at("/volumes/2/secret/secretName").asText());
    assertEquals(0440, pod.at("/volumes/2/secret/defaultMode").asInt());
    assertTrue(container.toString().contains("\"mountPath\":\"/etc/ds2/flink\",\"readOnly\":true"));
    assertLeastPrivilege(docs); // mounting a Secret needs no RBAC on secrets
    // Without a Secret nothing is mounted and no flag is passed.
    JsonNode plain = kind(render(Map.of()), "Deployment").get(0).at("/spec/template/spec");
    assertFalse(plain.toString().contains("flink-access"));
    assertFalse(plain.toString().contains("--flink-"));
  }
}
